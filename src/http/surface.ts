import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkShape } from '../wire/validation';
import { Core } from '../domain/core';
import { IdempotencyOptions, declareIdempotency, registerIdempotency } from './idempotency';
import { limitRequests } from './rate-limit';
import { declareCaller, identifyCallers } from './request-context';

/**
 * Each HTTP surface (REST `/api/v1`, GraphQL, the hosted pages, later `/v1`) is one encapsulated
 * Fastify plugin with its own credential parser, rate limit, error mapper and not-found handling;
 * what lies outside every surface (health, readiness, metrics) is neither authenticated nor
 * limited. This is the request state their hooks share, declared once for the server.
 */
export function declareSurfaceState(app: FastifyInstance) {
  declareCaller(app);
  declareIdempotency(app);
}

/**
 * The guards of a surface that takes Tessera's credentials (REST `/api/v1` and GraphQL), in their
 * order: who the caller is, the caller's request budget (shared by every surface and the
 * WebSocket), then the `Idempotency-Key` of a POST. Registered inside the surface's own scope.
 */
export function guardCredentialSurface(scope: FastifyInstance, core: Core, idempotency: IdempotencyOptions = {}) {
  identifyCallers(scope, core);
  limitRequests(scope);
  registerIdempotency(scope, core, idempotency);
}

/**
 * A surface's scope over zod schemas: request parts checked by `checkShape` (an absent body checked
 * as `{}`), answers sent as plain JSON (the response schemas document them, they never reshape an
 * answer), and every failure answered by the surface's own error mapper.
 */
export function zodScope(
  plain: FastifyInstance,
  sendError: (error: unknown, request: FastifyRequest, reply: FastifyReply) => unknown,
) {
  const scope = plain.withTypeProvider<ZodTypeProvider>();
  scope.setValidatorCompiler<z.ZodType>(
    ({ schema, httpPart }) =>
      (data) =>
        checkShape(schema, httpPart === 'body' ? (data ?? {}) : data),
  );
  scope.setSerializerCompiler(() => (data) => JSON.stringify(data));
  scope.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  return scope;
}

/** The methods a surface's router serves at a concrete path (HEAD included where Fastify exposes it for GET): the `Allow` of a 405. */
export function allowedMethods(app: FastifyInstance, path: string): string[] {
  return app.supportedMethods.filter((method) => app.findRoute({ method, url: path }) !== null).sort();
}
