import { ApiError, ApiErrorCode } from './error-codes';

/** The HTTP status of each error code (the domain's and the HTTP layer's), for the HTTP surfaces (REST, hosted pages, GraphQL's extensions.statusCode). */
export const httpStatusOf: Record<ApiErrorCode, number> = {
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

/** Every code an error envelope carries, in the order of the documented table (docs/rest-api.md, Errors). */
export const API_ERROR_CODES = Object.keys(httpStatusOf) as ApiErrorCode[];

/** The HTTP status a domain error answers with. */
export const statusOf = (error: ApiError): number => httpStatusOf[error.code];
