import { FastifyReply, FastifyRequest } from 'fastify';
import { HttpErrorCode, isApiError } from '../../http/error-codes';
import { errorEnvelope } from '../../http/envelope';
import { outageErrorOf, retryLater } from '../../http/outage';
import { failureOfDomain, frameworkFailureOf } from '../../http/framework-errors';

export { errorEnvelope };
export type { ErrorEnvelope } from '../../http/envelope';

export const success = <T>(data: T) => ({ success: true as const, data });

/** The one REST error mapper: every failure leaves as the error envelope, never with a stack. */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  // A database outage is logged by the outage watch, once, not here per request.
  const outage = outageErrorOf(request.server.databaseOutage, error);
  const known = outage ?? (isApiError(error) ? error : null);
  const failure = known ? failureOfDomain(known) : frameworkFailureOf(error);
  if (!failure) {
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send(errorEnvelope(HttpErrorCode.INTERNAL_ERROR, 'An unexpected error occurred'));
  }
  if (failure.status >= 500 && !outage) request.log.error({ err: error }, 'server error');
  if (failure.status === 503) retryLater(reply);
  return reply.status(failure.status).send(errorEnvelope(failure.code, failure.message, failure.fieldErrors));
}
