import { DomainError, ErrorCode } from '../domain/shared/errors';

/** The HTTP status of each domain error code, for the HTTP surfaces (REST, hosted pages, GraphQL's extensions.statusCode). */
export const httpStatusOf: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  IDEMPOTENCY_REQUEST_IN_PROGRESS: 409,
  IDEMPOTENCY_REQUEST_INTERRUPTED: 409,
  INSUFFICIENT_FUNDS: 422,
  CARD_DECLINED: 402,
  SANCTIONS_MATCH: 403,
  INVALID_PIN: 403,
  PIN_LOCKED: 429,
  PIN_NOT_SET: 422,
  KYC_REQUIRED: 422,
  SANDBOX_ONLY: 403,
  UNSUPPORTED_CURRENCY: 400,
  UNPROCESSABLE: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  URI_TOO_LONG: 414,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/** The HTTP status a domain error answers with. */
export const statusOf = (error: DomainError): number => httpStatusOf[error.code];
