import { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ErrorCode, FieldErrors } from '../../domain/shared/errors';
import { ApiError, ApiErrorCode, HttpErrorCode } from '../../http/error-codes';
import { httpStatusOf, statusOf } from '../../http/status';
import { outageErrorOf, retryLater } from '../../http/outage';

export interface ErrorEnvelope {
  success: false;
  error: { code: string; message: string; statusCode: number; errors?: FieldErrors };
}

export const success = <T>(data: T) => ({ success: true as const, data });

export function errorEnvelope(code: ApiErrorCode, message: string, errors?: FieldErrors): ErrorEnvelope {
  return { success: false, error: { code, message, statusCode: httpStatusOf[code], ...(errors ? { errors } : {}) } };
}

/** Client-error statuses that Fastify or a plugin may raise, by their code in the taxonomy. */
const CODE_OF_CLIENT_STATUS: Partial<Record<number, ApiErrorCode>> = {
  400: ErrorCode.BAD_REQUEST,
  401: ErrorCode.UNAUTHORIZED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  405: HttpErrorCode.METHOD_NOT_ALLOWED,
  408: HttpErrorCode.REQUEST_TIMEOUT,
  409: ErrorCode.CONFLICT,
  413: HttpErrorCode.PAYLOAD_TOO_LARGE,
  414: HttpErrorCode.URI_TOO_LONG,
  415: HttpErrorCode.UNSUPPORTED_MEDIA_TYPE,
  422: ErrorCode.UNPROCESSABLE,
  429: HttpErrorCode.RATE_LIMITED,
  431: HttpErrorCode.HEADERS_TOO_LARGE,
};

/** Route-schema (Ajv) failures as the per-field `errors` map: `/amount` → `amount`, missing → its name. */
function fieldErrorsOfSchema(error: FastifyError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.validation ?? []) {
    const missing = (issue.params as { missingProperty?: unknown } | undefined)?.missingProperty;
    const pointer = [issue.instancePath, typeof missing === 'string' ? missing : '']
      .join('/').split('/').filter(Boolean).join('.');
    (errors[pointer || '_'] ??= []).push(issue.message ?? 'is invalid');
  }
  return errors;
}

/** Maps Fastify's own failures (body parsing, route schemas, limits) onto the domain taxonomy. */
function fromFastifyError(error: FastifyError): ApiError | null {
  if (typeof error !== 'object' || error === null) return null;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new DomainError(HttpErrorCode.PAYLOAD_TOO_LARGE, 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new DomainError(HttpErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Unsupported Content-Type; send application/json');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new DomainError(ErrorCode.BAD_REQUEST, 'Request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new DomainError(ErrorCode.BAD_REQUEST, 'Content-Length does not match the body');
    default:
      break;
  }
  if (Array.isArray(error.validation)) {
    return new DomainError(ErrorCode.VALIDATION_ERROR, 'Validation failed', fieldErrorsOfSchema(error));
  }
  // Only errors that declare a client status are the client's fault; a stray SyntaxError or
  // TypeError thrown by our own code is a 500.
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return new DomainError(CODE_OF_CLIENT_STATUS[status] ?? ErrorCode.BAD_REQUEST, error.message || 'Bad request');
  }
  return null;
}

/** The one REST error mapper: every failure leaves as the error envelope, never with a stack. */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  // A database outage is logged by the outage watch, once, not here per request.
  const outage = outageErrorOf(request.server.databaseOutage, error);
  const domain = outage ?? (error instanceof DomainError ? error : fromFastifyError(error as FastifyError));
  if (!domain) {
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send(errorEnvelope(HttpErrorCode.INTERNAL_ERROR, 'An unexpected error occurred'));
  }
  if (statusOf(domain) >= 500 && !outage) request.log.error({ err: error }, 'server error');
  if (statusOf(domain) === 503) retryLater(reply);
  return reply.status(statusOf(domain)).send(errorEnvelope(domain.code, domain.message, domain.fieldErrors));
}
