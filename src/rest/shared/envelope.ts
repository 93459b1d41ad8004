import { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ErrorCode, FieldErrors, httpStatusOf } from '../../domain/shared/errors';

export interface ErrorEnvelope {
  success: false;
  error: { code: string; message: string; statusCode: number; errors?: FieldErrors };
}

export const success = <T>(data: T) => ({ success: true as const, data });

export function errorEnvelope(code: ErrorCode, message: string, errors?: FieldErrors): ErrorEnvelope {
  return { success: false, error: { code, message, statusCode: httpStatusOf[code], ...(errors ? { errors } : {}) } };
}

/** Maps Fastify's own failures (body parsing, limits, routing) onto the domain taxonomy. */
function fromFastifyError(error: FastifyError): DomainError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new DomainError(ErrorCode.PAYLOAD_TOO_LARGE, 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new DomainError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Unsupported Content-Type; send application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new DomainError(ErrorCode.BAD_REQUEST, 'Request body is empty but Content-Type is application/json');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new DomainError(ErrorCode.BAD_REQUEST, 'Request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new DomainError(ErrorCode.BAD_REQUEST, 'Content-Length does not match the body');
    default:
      break;
  }
  if (error instanceof SyntaxError || error.name === 'SyntaxError') {
    return new DomainError(ErrorCode.BAD_REQUEST, 'Request body is not valid JSON');
  }
  const status = error.statusCode ?? 500;
  if (status === 429) return new DomainError(ErrorCode.RATE_LIMITED, error.message || 'Too many requests');
  if (status >= 400 && status < 500) return new DomainError(ErrorCode.BAD_REQUEST, error.message);
  return null;
}

/** The one REST error mapper: every failure leaves as the error envelope, never with a stack. */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const domain = error instanceof DomainError ? error : fromFastifyError(error as FastifyError);
  if (!domain) {
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send(errorEnvelope(ErrorCode.INTERNAL_ERROR, 'An unexpected error occurred'));
  }
  if (domain.statusCode >= 500) request.log.error({ err: error }, 'server error');
  return reply.status(domain.statusCode).send(errorEnvelope(domain.code, domain.message, domain.fieldErrors));
}
