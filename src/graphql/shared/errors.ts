import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { DomainError, ErrorCode } from '../../domain/shared/errors';

export const INTERNAL_SERVER_ERROR = 'INTERNAL_SERVER_ERROR';

/** Domain codes as GraphQL `extensions.code`; the two auth codes use Apollo's usual names. */
const graphqlCodeOf = (code: ErrorCode): string => {
  if (code === ErrorCode.UNAUTHORIZED) return 'UNAUTHENTICATED';
  if (code === ErrorCode.VALIDATION_ERROR) return 'BAD_USER_INPUT';
  return code;
};

/**
 * The one GraphQL error mapper. Domain errors keep their message, code and per-field errors;
 * anything unexpected becomes INTERNAL_SERVER_ERROR with a generic message and no stack.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError ?? error : error;
  if (original instanceof DomainError) {
    return {
      message: original.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: {
        code: graphqlCodeOf(original.code),
        domainCode: original.code,
        statusCode: original.statusCode,
        ...(original.fieldErrors ? { errors: original.fieldErrors } : {}),
      },
    };
  }
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && code !== INTERNAL_SERVER_ERROR) {
    const { stacktrace: _stacktrace, http: _http, ...extensions } = formatted.extensions ?? {};
    return { ...formatted, extensions };
  }
  if (original instanceof GraphQLError && !original.originalError) {
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code: 'BAD_REQUEST' } };
  }
  return { message: 'An unexpected error occurred', path: formatted.path, extensions: { code: INTERNAL_SERVER_ERROR } };
}
