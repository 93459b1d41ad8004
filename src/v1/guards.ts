import { FastifyInstance, FastifyRequest } from 'fastify';
import { V1RateLimits } from '../config';
import { Core } from '../domain/core';
import { RequestContext } from '../domain/shared/context';
import { invalidV1Key } from '../domain/identity';
import { bearerOf, originOf } from '../http/request-context';

/** The request budgets of `/v1` keys (design section 11): creating payments, and reads. */
export type V1Budget = 'create' | 'read';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** On a `/v1` route: the budget it spends (default `read`). */
    v1Budget?: V1Budget;
    /** On a `/v1` route: `key` (default) needs a `/v1` secret key; `public` anyone (its OpenAPI document). */
    v1Auth?: 'key' | 'public';
  }
}

/**
 * A `/v1` request's caller, before anything else of it is read (so that malformed and oversized
 * bodies are refused after the key, and counted against its budget): `Authorization: Bearer
 * tessera_…_sk_…` becomes a context of the key's business and mode. Anything else presented (a
 * main-surface `bk_` key, a token) is refused on routes that need a key.
 */
export function identifyV1Callers(scope: FastifyInstance, core: Core) {
  scope.addHook('onRequest', async (request) => {
    const authorization = request.headers.authorization;
    const bearer = bearerOf(typeof authorization === 'string' ? authorization : null);
    if (!bearer) return;
    try {
      request.tesseraContext = await core.v1Keys.authenticate(core.anonymousContext(originOf(request)), bearer);
    } catch (error) {
      request.tesseraAuthError = error;
    }
  });
}

const budgetOf = (request: FastifyRequest): V1Budget => request.routeOptions.config?.v1Budget ?? 'read';

/**
 * `/v1`'s rate limits per key with @fastify/rate-limit (the server's store: memory, or Redis with
 * REDIS_URL): payment creation and reads counted apart, live and test keys with their own maxima,
 * one window for all (V1_RATE_LIMIT_*). A request without a valid key spends its client IP's test
 * budget. Every answer of the surface carries X-RateLimit-Limit, -Remaining and -Reset (the
 * server rewrites -Reset to Unix seconds); an exhausted budget answers 429 `rate_limited`.
 */
export function limitV1Requests(scope: FastifyInstance, limits: V1RateLimits) {
  const maxOf = (ctx: RequestContext | null, budget: V1Budget) => {
    const live = ctx?.livemode === true;
    if (budget === 'create') return live ? limits.liveCreate : limits.testCreate;
    return live ? limits.liveRead : limits.testRead;
  };
  scope.addHook(
    'onRequest',
    scope.rateLimit({
      keyGenerator: (request: FastifyRequest) => {
        const ctx = request.tesseraContext;
        const owner = ctx?.actor.kind === 'api' ? `key:${ctx.actor.credentialId}` : `ip:${request.ip}`;
        return `v1:${owner}:${budgetOf(request)}`;
      },
      max: (request: FastifyRequest) => maxOf(request.tesseraContext, budgetOf(request)),
      timeWindow: limits.windowMs,
    }),
  );
}

/** A route that needs a key refuses a request without a valid one (401 `invalid_api_key`); unmatched paths answer 404 to anyone. */
export function requireV1Keys(scope: FastifyInstance) {
  scope.addHook('onRequest', async (request) => {
    if (request.is404 || request.routeOptions.config?.v1Auth === 'public') return;
    v1Caller(request);
  });
}

/** The context of a `/v1` request's key; 401 `invalid_api_key` without a valid one. */
export function v1Caller(request: FastifyRequest): RequestContext {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- what authentication threw (a caught value), thrown as it was
  if (request.tesseraAuthError) throw request.tesseraAuthError;
  if (!request.tesseraContext)
    throw invalidV1Key('Send your secret key: Authorization: Bearer tessera_test_sk_… (or tessera_live_sk_…)');
  return request.tesseraContext;
}
