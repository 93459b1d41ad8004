import { AREAS } from '../areas';
import type { ErrorKind, GenericErrorCode } from '../domain/shared/errors';
import { ApiError, ApiErrorCode, HttpErrorCode } from './error-codes';

/**
 * The status each kind of an area's own code answers with (`ErrorKind`, src/domain/shared/errors.ts):
 * the area says what kind of refusal its code is, the HTTP faces say how a kind answers.
 */
const STATUS_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  forbidden: 403,
  conflict: 409,
  refused: 422,
  declined: 402,
  exhausted: 429,
};

/** The status of each generic code of the domain and each code of the HTTP layer. */
const OWN_STATUSES: Readonly<Record<GenericErrorCode | HttpErrorCode, number>> = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
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

/** Each area's own codes (its manifest's `errors`) with the status of their kind, in the order of src/areas.ts. */
function areaStatuses(): Array<[string, number]> {
  const statuses = AREAS.flatMap((area) =>
    Object.entries(area.domain.errors ?? {}).map(([code, { kind }]): [string, number] => [code, STATUS_OF_KIND[kind]]),
  );
  const twice = statuses.find(
    ([code], at) => code in OWN_STATUSES || statuses.findIndex(([other]) => other === code) < at,
  );
  if (twice) throw new Error(`The error code ${twice[0]} is declared twice`);
  return statuses;
}

/**
 * The HTTP status of each error code (the domain's and the HTTP layer's), for the HTTP surfaces
 * (REST, hosted pages, GraphQL's extensions.statusCode), in the order of the documented table: the
 * areas' codes follow CONFLICT.
 */
export const httpStatusOf: Readonly<Record<ApiErrorCode, number>> = (() => {
  const own = Object.entries(OWN_STATUSES);
  const after = own.findIndex(([code]) => code === 'CONFLICT') + 1;
  return Object.fromEntries([...own.slice(0, after), ...areaStatuses(), ...own.slice(after)]) as Record<
    ApiErrorCode,
    number
  >;
})();

/** Every code an error envelope carries, in the order of the documented table (docs/rest-api.md, Errors). */
export const API_ERROR_CODES = Object.keys(httpStatusOf) as ApiErrorCode[];

/** The HTTP status a domain error answers with. */
export const statusOf = (error: ApiError): number => httpStatusOf[error.code];
