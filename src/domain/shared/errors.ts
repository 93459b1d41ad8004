/**
 * The one error taxonomy of the domain: every code here is one the domain throws
 * (test/architecture.test.ts checks it). The domain knows no HTTP: each face maps a code to its
 * own answer (REST: src/http/status.ts and src/rest/shared/envelope.ts; GraphQL: extensions.code
 * in src/graphql/shared/errors.ts). Failures of an HTTP request itself (its method, size, pace,
 * arrival) and the unexpected have codes of the HTTP layer (src/http/error-codes.ts).
 */
export const ErrorCode = {
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
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
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * What each code means, in one line for a client developer: the GraphQL schema's descriptions of
 * the userError codes (docs/rest-api.md has the full table with statuses and where each is raised).
 */
export const ERROR_CODE_MEANINGS: Readonly<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'An input field is not valid; field says which, message says why',
  BAD_REQUEST: 'The request itself could not be read',
  UNAUTHORIZED: 'A credential is missing or not valid, or a secret given to confirm an action is wrong',
  FORBIDDEN: "The caller's role does not allow the operation",
  NOT_FOUND: "No such object in the caller's business and mode",
  CONFLICT: "The object already exists, or the change would break a rule of the object's state",
  IDEMPOTENCY_KEY_REUSED: 'The idempotency key was used before with a different request',
  IDEMPOTENCY_REQUEST_IN_PROGRESS: 'The first request with this idempotency key is still running; retry later',
  IDEMPOTENCY_REQUEST_INTERRUPTED:
    'The first request with this idempotency key changed data but its answer was never stored: look the result up',
  INSUFFICIENT_FUNDS: 'The debit would take the wallet below zero; nothing was written',
  CARD_DECLINED: 'The card was declined',
  SANCTIONS_MATCH: 'A party matched a sanctions list',
  INVALID_PIN: 'The payout PIN is wrong; the message says how many tries are left',
  PIN_LOCKED: 'The payout PIN is locked after too many wrong tries; the message says when it unlocks',
  PIN_NOT_SET: 'The operation needs the payout PIN and the business has none set',
  KYC_REQUIRED: "The end-user's KYC check is not approved yet",
  SANDBOX_ONLY: 'A sandbox-only operation was called in live mode',
  UNSUPPORTED_CURRENCY: 'The currency is not supported; the message lists the supported codes',
  UNPROCESSABLE:
    'The operation cannot be done in this mode or at this size (for example live cards while no acquirer is configured)',
  SERVICE_UNAVAILABLE: 'Something the request needs did not answer; retry later',
};

export type FieldErrors = Record<string, string[]>;

/** A refusal with its code; the HTTP layer raises its own codes in the same shape (src/http/error-codes.ts). */
export class DomainError<Code extends string = ErrorCode> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly fieldErrors?: FieldErrors,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string) => new DomainError(ErrorCode.NOT_FOUND, `${what} not found`);
export const unauthorized = (message = 'Authentication required') => new DomainError(ErrorCode.UNAUTHORIZED, message);
export const forbidden = (message = 'You do not have permission to do this') =>
  new DomainError(ErrorCode.FORBIDDEN, message);
export const validationError = (fieldErrors: FieldErrors, message = 'Validation failed') =>
  new DomainError(ErrorCode.VALIDATION_ERROR, message, fieldErrors);

/**
 * Narrows to a domain error (`instanceof` alone narrows the generic class to `DomainError<any>`).
 * Its code is the domain's by type; callers that act on a code compare it first.
 */
export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;
