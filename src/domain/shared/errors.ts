/**
 * The one error taxonomy of the domain. The domain knows no HTTP: each face maps a code to its
 * own answer (REST: src/http/status.ts and src/rest/shared/envelope.ts; GraphQL: extensions.code
 * in src/graphql/shared/errors.ts).
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
  INVALID_PIN: 'INVALID_PIN',
  PIN_LOCKED: 'PIN_LOCKED',
  PIN_NOT_SET: 'PIN_NOT_SET',
  /** Treasury: the end-user's KYC check is not approved yet (design section 10). */
  KYC_REQUIRED: 'KYC_REQUIRED',
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
}

export const notFound = (what: string) => new DomainError(ErrorCode.NOT_FOUND, `${what} not found`);
export const unauthorized = (message = 'Authentication required') =>
  new DomainError(ErrorCode.UNAUTHORIZED, message);
export const forbidden = (message = 'You do not have permission to do this') =>
  new DomainError(ErrorCode.FORBIDDEN, message);
export const validationError = (fieldErrors: FieldErrors, message = 'Validation failed') =>
  new DomainError(ErrorCode.VALIDATION_ERROR, message, fieldErrors);
