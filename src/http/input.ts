import { FastifyInstance } from 'fastify';
import { DomainError, ErrorCode, FieldErrors, validationError } from '../domain/shared/errors';
import { MAX_INPUT_DEPTH, unsafeInputErrors } from '../wire/validation';

/** Whether objects and arrays nest deeper than `max` anywhere in a parsed JSON value (iterative). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * `Content-Type: application/json` with an empty body is a request without a body, as if no
 * Content-Type had been sent: a POST that takes no body succeeds, and one that needs a body answers
 * the usual VALIDATION_ERROR naming the missing fields. Anything else goes to Fastify's own parser
 * (with its prototype-poisoning protection). A body nested deeper than MAX_INPUT_DEPTH is refused
 * there, for REST and GraphQL alike: JSON.parse takes any depth, but JSON.stringify (idempotency,
 * logs) and PostgreSQL's jsonb do not.
 */
export function registerJsonParser(app: FastifyInstance) {
  const { onProtoPoisoning, onConstructorPoisoning } = app.initialConfig;
  const parseJson = app.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) return done(null, undefined);
    return parseJson(request, body as string, (error, parsed) => {
      if (error) return done(error, undefined);
      if (nestedDeeperThan(parsed, MAX_INPUT_DEPTH)) {
        return done(
          new DomainError(
            ErrorCode.BAD_REQUEST,
            `Request body is nested too deeply: at most ${MAX_INPUT_DEPTH} levels of objects and arrays`,
          ),
          undefined,
        );
      }
      return done(null, parsed);
    });
  });
}

const merge = (target: FieldErrors, source: FieldErrors) => {
  for (const [field, messages] of Object.entries(source))
    (target[field] ??= []).push(...messages.filter((message) => !target[field]?.includes(message)));
  return target;
};

/**
 * One check of every string a REST or hosted-page request brings (path parameters, query string,
 * body, keys included), before any handler or domain code sees it: PostgreSQL stores neither a
 * NUL character nor an unpaired surrogate, so either is a 400 VALIDATION_ERROR naming the field,
 * never a failed statement. GraphQL checks its variables and inline strings itself
 * (src/graphql/shared/limits.ts), to answer in GraphQL's own terms.
 */
export function registerInputChecks(app: FastifyInstance, exceptRoutes: string[]) {
  const skipped = new Set(exceptRoutes);
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.url && skipped.has(request.routeOptions.url)) return;
    const errors: FieldErrors = {};
    merge(errors, unsafeInputErrors(request.params, ''));
    merge(errors, unsafeInputErrors(request.query, ''));
    merge(errors, unsafeInputErrors(request.body, ''));
    if (Object.keys(errors).length > 0) throw validationError(errors);
  });
}
