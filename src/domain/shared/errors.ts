/**
 * The one error taxonomy of the domain: every code is one the domain throws
 * (test/architecture.test.ts checks it). The generic codes, which any area raises, are declared
 * here; an area's own codes are declared by the area (`<area>.errors.ts`, listed in its manifest's
 * `errors`) and join `ErrorCode` by module augmentation of `AreaErrorCodes`. The domain knows no
 * HTTP: each face maps a code to its own answer (REST: src/http/status.ts and
 * src/rest/shared/envelope.ts; GraphQL: extensions.code in src/graphql/shared/errors.ts). Failures
 * of an HTTP request itself (its method, size, pace, arrival) and the unexpected have codes of the
 * HTTP layer (src/http/error-codes.ts).
 */
export const ErrorCode = {
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  BAD_REQUEST: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  SANDBOX_ONLY: 'SANDBOX_ONLY',
  UNSUPPORTED_CURRENCY: 'UNSUPPORTED_CURRENCY',
  UNPROCESSABLE: 'UNPROCESSABLE',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
} as const;
export type GenericErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The codes the areas add, empty here so that shared/ names no area: an area declares its codes in
 * its `<area>.errors.ts` and adds them by module augmentation:
 *
 *   type PayoutsErrors = typeof PAYOUTS_ERRORS;
 *   declare module '../shared/errors' {
 *     interface AreaErrorCodes extends PayoutsErrors {}
 *   }
 *
 * Two areas declaring one code do not compile.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AreaErrorCodes {}

/** A code the domain raises: a generic one, or one an area declares. */
export type ErrorCode = GenericErrorCode | Extract<keyof AreaErrorCodes, string>;

/**
 * What kind of refusal an area's code is, in the domain's words, so that each face answers it as it
 * answers that kind (the HTTP faces: one status per kind, src/http/status.ts): the caller may not
 * (`forbidden`), the object's state or another request is in the way (`conflict`), the rules
 * refuse it as asked (`refused`), an outside party declined the payment (`declined`), too many
 * tries for now (`exhausted`).
 */
export type ErrorKind = 'forbidden' | 'conflict' | 'refused' | 'declined' | 'exhausted';

/** An area's code: what it means, in one line for a client developer, and its kind. */
export interface ErrorCodeDeclaration {
  meaning: string;
  kind: ErrorKind;
}

/** An area's codes with their declarations (`<area>.errors.ts`, and its manifest's `errors`). */
export type ErrorCodeTable = Readonly<Record<string, ErrorCodeDeclaration>>;

/** The codes of a table, as constants to raise and compare (`PayoutsErrorCode.INVALID_PIN`). */
export const codesOf = <Table extends ErrorCodeTable>(table: Table) =>
  Object.fromEntries(Object.keys(table).map((code) => [code, code])) as { readonly [Code in keyof Table]: Code };

/**
 * What each generic code means, in one line for a client developer: the GraphQL schema's
 * descriptions of the userError codes, with the areas' meanings (docs/rest-api.md has the full
 * table with statuses and where each is raised).
 */
export const ERROR_CODE_MEANINGS: Readonly<Record<GenericErrorCode, string>> = {
  VALIDATION_ERROR: 'An input field is not valid; field says which, message says why',
  BAD_REQUEST: 'The request itself could not be read',
  UNAUTHORIZED: 'A credential is missing or not valid, or a secret given to confirm an action is wrong',
  FORBIDDEN: "The caller's role does not allow the operation",
  NOT_FOUND: "No such object in the caller's business and mode",
  CONFLICT: "The object already exists, or the change would break a rule of the object's state",
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
