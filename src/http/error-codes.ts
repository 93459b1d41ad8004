import { DomainError, ErrorCode } from '../domain/shared/errors';

/**
 * Codes only the HTTP layer answers with: failures of the request itself (its method, size,
 * pace, arrival) and the unexpected. The domain never throws them; the faces' error envelopes
 * carry them beside the domain's codes (docs/rest-api.md, Errors).
 */
export const HttpErrorCode = {
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  URI_TOO_LONG: 'URI_TOO_LONG',
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  RATE_LIMITED: 'RATE_LIMITED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const;
export type HttpErrorCode = (typeof HttpErrorCode)[keyof typeof HttpErrorCode];

/** A code an error envelope carries: the domain's or the HTTP layer's. */
export type ApiErrorCode = ErrorCode | HttpErrorCode;

/** What each HTTP-level code means, in one line (as the domain's codes' meanings: src/domain/shared/errors.ts, <area>.errors.ts). */
export const HTTP_ERROR_CODE_MEANINGS: Readonly<Record<HttpErrorCode, string>> = {
  METHOD_NOT_ALLOWED: 'The path exists, but not with this method',
  REQUEST_TIMEOUT: 'The request did not finish arriving in time',
  PAYLOAD_TOO_LARGE: 'The body is larger than the limit',
  UNSUPPORTED_MEDIA_TYPE: 'The body is not JSON',
  URI_TOO_LONG: 'A path parameter is too long',
  HEADERS_TOO_LARGE: 'The request line and headers are too large',
  RATE_LIMITED: 'Too many requests; retry after the time given',
  INTERNAL_ERROR: 'An unexpected failure',
};

/** An error the HTTP faces answer: the domain's, or one the HTTP layer raises itself (too many requests, a body too large). */
export type ApiError = DomainError<ApiErrorCode>;

/** Narrows to an error the faces answer with its code (`instanceof` alone narrows the generic class to `DomainError<any>`). */
export const isApiError = (error: unknown): error is ApiError => error instanceof DomainError;
