import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, FieldErrors } from '../domain/shared/errors';
import { ApiErrorCode, HttpErrorCode, isApiError } from '../http/error-codes';
import { httpStatusOf } from '../http/status';
import { allowedMethods } from '../http/surface';
import { outageErrorOf, retryLater } from '../http/outage';
import { HttpFailure, failureOfDomain, frameworkFailureOf } from '../http/framework-errors';

/**
 * The error body of the alternate surface: `{ error: { code, message } }` with a snake_case code
 * (design section 11), plus `details` (per-field messages) on `validation_failed`.
 */
export interface V1ErrorBody {
  error: { code: string; message: string; details?: FieldErrors };
}

/** Where the taxonomy's codes answer otherwise on `/v1` than their lowercase name and usual status. */
const V1_CODES: Partial<Record<ApiErrorCode, [number, string]>> = {
  VALIDATION_ERROR: [422, 'validation_failed'],
  UNSUPPORTED_CURRENCY: [422, 'validation_failed'],
  UNAUTHORIZED: [401, 'invalid_api_key'],
  INSUFFICIENT_FUNDS: [422, 'insufficient_balance'],
  PAYLOAD_TOO_LARGE: [413, 'payload_too_large'],
  // docs/alt-v1.md: a Content-Type other than JSON is a 400 bad_request (REST answers 415).
  UNSUPPORTED_MEDIA_TYPE: [400, 'bad_request'],
};

/** The status and `/v1` code of a domain error: the table above, else its usual status and its code in lowercase. */
export function v1StatusOf(code: ApiErrorCode): [number, string] {
  return V1_CODES[code] ?? [httpStatusOf[code], code.toLowerCase()];
}

/** A path of the alternate surface `/v1`, whose failures have its own body (not `/v1/business/…`, the main surface's documented alias). */
export const isV1Path = (url: string) => /^\/v1(\/|\?|$)/.test(url) && !url.startsWith('/v1/business/');

/** `settleIn` → `settle_in`: the domain names a command's fields, `/v1` names them as its clients sent them. */
const snakeCase = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

export function v1ErrorBody(code: ApiErrorCode, message: string, details?: FieldErrors): V1ErrorBody {
  const [, v1Code] = v1StatusOf(code);
  const named = details
    ? Object.fromEntries(Object.entries(details).map(([field, messages]) => [snakeCase(field), messages]))
    : {};
  return { error: { code: v1Code, message, ...(Object.keys(named).length > 0 ? { details: named } : {}) } };
}

/** A failure the server answers before any `/v1` route sees the request (router, Node's parser, shutdown), in the `/v1` body. */
export const v1FailureBody = (failure: HttpFailure) => v1ErrorBody(failure.code, failure.message, failure.fieldErrors);

/** The one `/v1` error mapper: every failure leaves as `{ error: { code, message } }`, never with a stack. */
export function sendV1Error(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  // A database outage is logged by the outage watch, once, not here per request.
  const outage = outageErrorOf(request.server.databaseOutage, error);
  const known = outage ?? (isApiError(error) ? error : null);
  const failure = known ? failureOfDomain(known) : frameworkFailureOf(error);
  if (!failure) {
    request.log.error({ err: error }, 'unexpected error');
    return reply
      .status(500)
      .send(v1ErrorBody(HttpErrorCode.INTERNAL_ERROR, 'An unexpected error occurred; retry with exponential backoff'));
  }
  const [status] = v1StatusOf(failure.code);
  if (status >= 500 && !outage) request.log.error({ err: error }, 'server error');
  if (status === 503) retryLater(reply);
  return reply.status(status).send(v1ErrorBody(failure.code, failure.message, failure.fieldErrors));
}

/** Every path under `/v1` that no route serves: 405 with `Allow` when other methods serve it, else 404. */
export function registerV1NotFound(scope: FastifyInstance) {
  scope.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = allowedMethods(scope, path);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return reply
        .status(405)
        .send(
          v1ErrorBody(
            HttpErrorCode.METHOD_NOT_ALLOWED,
            `Method ${request.method} is not allowed for ${path}; allowed: ${allowed.join(', ')}`,
          ),
        );
    }
    return reply.status(404).send(v1ErrorBody(ErrorCode.NOT_FOUND, `No route for ${request.method} ${path}`));
  });
}
