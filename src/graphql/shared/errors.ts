import { FastifyBaseLogger } from 'fastify';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { ErrorCode } from '../../domain/shared/errors';
import { httpStatusOf, statusOf } from '../../http/status';
import { ApiErrorCode, isApiError } from '../../http/error-codes';
import { storesStatus } from '../../http/idempotency';
import { DatabaseOutage, unavailableErrorOf } from '../../http/outage';

export const INTERNAL_SERVER_ERROR = 'INTERNAL_SERVER_ERROR';

/** Domain codes as GraphQL `extensions.code`; the two auth codes use Apollo's usual names. */
const graphqlCodeOf = (code: ApiErrorCode): string => {
  if (code === ErrorCode.UNAUTHORIZED) return 'UNAUTHENTICATED';
  if (code === ErrorCode.VALIDATION_ERROR) return 'BAD_USER_INPUT';
  return code;
};

/**
 * graphql's "Did you mean …?" hints name fields, types and enum values the client did not ask
 * for: with introspection off they would reveal the schema one guess at a time.
 */
export const withoutSuggestions = (message: string) => message.replace(/ ?Did you mean [^?]*\?/g, '');

/** The error behind a GraphQL error; a database outage as the SERVICE_UNAVAILABLE domain error every face answers with. */
const originalOf = (error: unknown) => {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  return unavailableErrorOf(original) ?? original;
};

/**
 * Whether an error is a failure of the server (a bug, a database outage) rather than the
 * client's: not a domain error, not a GraphQL error with its own code (parse, validation, limits,
 * variables) and not one GraphQL raised itself. These are logged, and the client only learns
 * that something went wrong.
 */
export function isUnexpectedError(error: unknown): boolean {
  const original = originalOf(error);
  if (isApiError(original)) return false;
  const code = error instanceof GraphQLError ? error.extensions?.code : undefined;
  if (typeof code === 'string' && code !== INTERNAL_SERVER_ERROR) return false;
  return !(original instanceof GraphQLError && !original.originalError);
}

/**
 * Logs each unexpected error of an operation at error level, with the operation's name and the
 * field's path; `log` carries the request id (a Fastify request's logger, or a child with it). An
 * error of a database outage is counted on `outage` instead.
 */
export function logUnexpectedErrors(
  log: FastifyBaseLogger,
  errors: readonly (GraphQLError | GraphQLFormattedError)[],
  operationName: string | null,
  outage: DatabaseOutage,
) {
  for (const error of errors) {
    if (!(error instanceof GraphQLError)) continue;
    // A database outage is logged by the outage watch, once, not here per request.
    if (unavailableErrorOf(error.originalError)) {
      outage.refused(error.originalError);
      continue;
    }
    const original = originalOf(error);
    // A domain error of the server's side (an outside party that did not answer), as REST logs it.
    if (isApiError(original) && statusOf(original) >= 500)
      log.error({ err: original, operationName, path: error.path?.join('.') }, 'server error');
    else if (isUnexpectedError(error))
      log.error(
        { err: error.originalError ?? error, operationName, path: error.path?.join('.') },
        'unexpected GraphQL error',
      );
  }
}

/**
 * The one GraphQL error mapper. Domain errors keep their message, code and per-field errors;
 * anything unexpected becomes INTERNAL_SERVER_ERROR with a generic message and no stack. With
 * `hideSuggestions`, no message carries graphql's "Did you mean …?" hints.
 */
export function graphQLErrorFormatter({ hideSuggestions }: { hideSuggestions: boolean }) {
  const message = (text: string) => (hideSuggestions ? withoutSuggestions(text) : text);
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = originalOf(error);
    if (isApiError(original)) {
      return {
        message: original.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: {
          code: graphqlCodeOf(original.code),
          domainCode: original.code,
          statusCode: statusOf(original),
          ...(original.fieldErrors ? { errors: original.fieldErrors } : {}),
        },
      };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && code !== INTERNAL_SERVER_ERROR) {
      const { stacktrace: _stacktrace, http: _http, ...extensions } = formatted.extensions ?? {};
      return { ...formatted, message: message(formatted.message), extensions };
    }
    if (original instanceof GraphQLError && !original.originalError) {
      return {
        message: message(formatted.message),
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code: 'BAD_REQUEST' },
      };
    }
    return {
      message: 'An unexpected error occurred',
      path: formatted.path,
      extensions: { code: INTERNAL_SERVER_ERROR },
    };
  };
}

/**
 * Whether a GraphQL result may be stored under an Idempotency-Key, by REST's rule (no 409, 429 or
 * server error): neither its errors nor its payloads' userErrors carry a code REST does not store.
 * The one rule for HTTP (src/graphql/server.ts) and WebSocket (src/graphql/socket.ts).
 */
export function storesResult(result: {
  errors?: readonly GraphQLFormattedError[];
  data?: Record<string, unknown> | null;
}): boolean {
  const notStored = (error: GraphQLFormattedError) =>
    error.extensions?.code === INTERNAL_SERVER_ERROR ||
    (typeof error.extensions?.statusCode === 'number' && !storesStatus(error.extensions.statusCode));
  const userErrorNotStored = (payload: unknown) =>
    Array.isArray((payload as { userErrors?: unknown })?.userErrors) &&
    (payload as { userErrors: Array<{ code?: unknown }> }).userErrors.some(
      (userError) =>
        typeof userError.code === 'string' && !storesStatus(httpStatusOf[userError.code as ErrorCode] ?? 500),
    );
  return !(result.errors?.some(notStored) || Object.values(result.data ?? {}).some(userErrorNotStored));
}
