/**
 * The one error taxonomy of the domain. REST maps a code to a status and the
 * error envelope (src/rest/shared/envelope.ts); GraphQL maps it to extensions.code
 * (src/graphql/shared/errors.ts).
 */
export const ErrorCode = {
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  CONFLICT: 'CONFLICT',
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  IDEMPOTENCY_REQUEST_IN_PROGRESS: 'IDEMPOTENCY_REQUEST_IN_PROGRESS',
  IDEMPOTENCY_REQUEST_INTERRUPTED: 'IDEMPOTENCY_REQUEST_INTERRUPTED',
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_FUNDS',
  CARD_DECLINED: 'CARD_DECLINED',
  SANCTIONS_MATCH: 'SANCTIONS_MATCH',
  SANDBOX_ONLY: 'SANDBOX_ONLY',
  UNSUPPORTED_CURRENCY: 'UNSUPPORTED_CURRENCY',
  UNPROCESSABLE: 'UNPROCESSABLE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  URI_TOO_LONG: 'URI_TOO_LONG',
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  RATE_LIMITED: 'RATE_LIMITED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

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

export type FieldErrors = Record<string, string[]>;

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: FieldErrors,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get statusCode(): number {
    return httpStatusOf[this.code];
  }
}

export const notFound = (what: string) => new DomainError(ErrorCode.NOT_FOUND, `${what} not found`);
export const unauthorized = (message = 'Authentication required') =>
  new DomainError(ErrorCode.UNAUTHORIZED, message);
export const forbidden = (message = 'You do not have permission to do this') =>
  new DomainError(ErrorCode.FORBIDDEN, message);
export const validationError = (fieldErrors: FieldErrors, message = 'Validation failed') =>
  new DomainError(ErrorCode.VALIDATION_ERROR, message, fieldErrors);
