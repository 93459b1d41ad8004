import { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import Redis from 'ioredis';
import { Config } from '../config';
import { RequestContext } from '../domain/shared/context';
import { DomainError } from '../domain/shared/errors';
import { ApiError, HttpErrorCode } from './error-codes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Spends one request of the caller's budget: the HTTP hook's own store and counters, for the WebSocket. */
    spendRateLimit: SpendRateLimit;
  }
}

/**
 * Whose budget a caller spends, and whose socket allowance it uses: an API credential (an API key
 * and the tokens exchanged for it share one), a dashboard user or an operator token; null for anyone else.
 */
export function budgetOwnerOf(ctx: RequestContext | null): string | null {
  const actor = ctx?.actor;
  if (actor?.kind === 'api') return `cred:${actor.credentialId}`;
  if (actor?.kind === 'dashboard') return `user:${actor.userId}`;
  if (actor?.kind === 'operator') return `operator:${actor.tokenId}`;
  return null;
}

/** What the limiter reads of a request; a socket operation presents the same. */
type LimitedRequest = Pick<FastifyRequest, 'tesseraContext' | 'ip' | 'url'>;

/**
 * Requests are counted per authenticated credential or dashboard user; anything else, including a
 * refused credential, per client IP, so that inventing a new x-api-key per request does not buy a
 * new budget.
 */
const rateLimitKey = (request: LimitedRequest): string => budgetOwnerOf(request.tesseraContext) ?? `ip:${request.ip}`;

export type RateLimitVerdict = { allowed: true } | { allowed: false; error: ApiError };

/** One request of `ctx`'s budget (of `ip`'s when `ctx` is null or refused), spent by a WebSocket operation. */
export type SpendRateLimit = (ctx: RequestContext | null, ip: string, path: string) => Promise<RateLimitVerdict>;

const tooManyRequests = (after: string) =>
  new DomainError(HttpErrorCode.RATE_LIMITED, `Too many requests; retry in ${after}`);

/**
 * The Redis client of the shared counters. While it cannot reach Redis (not yet up, or a connect
 * timed out while start-up kept the event loop busy), requests go unlimited (`skipOnError`) and
 * ioredis reconnects by itself: the log says so once when that starts and once when it ends,
 * instead of ioredis printing a stack trace for an error nobody listened to.
 */
function rateLimitRedis(app: FastifyInstance, url: string): Redis {
  const redis = new Redis(url, { connectTimeout: 500, maxRetriesPerRequest: 1 });
  let unreachable = false;
  redis.on('error', (error: Error) => {
    if (unreachable) return;
    unreachable = true;
    app.log.warn(
      `Redis of the rate-limit counters is unreachable (${error.message}): requests are not limited until it answers`,
    );
  });
  redis.on('ready', () => {
    if (!unreachable) return;
    unreachable = false;
    app.log.info('Redis of the rate-limit counters answers again: requests are limited');
  });
  return redis;
}

/**
 * The callers' budgets: @fastify/rate-limit with an in-memory store, or Redis when REDIS_URL is set
 * so that every API process shares the counters. Registered once for the server, so that every
 * surface (and the WebSocket, through `spendRateLimit`) spends from the same budget of a caller;
 * each surface applies it to its own requests with `limitRequests`. `X-RateLimit-Reset` is
 * rewritten to the Unix time of the reset.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config) {
  const redis = config.redisUrl ? rateLimitRedis(app, config.redisUrl) : undefined;
  await app.register(rateLimit, {
    global: false,
    max: config.rateLimitMax,
    timeWindow: config.rateLimitWindowMs,
    keyGenerator: rateLimitKey,
    redis,
    nameSpace: `${config.redisKeyPrefix}rate-limit:`,
    skipOnError: true,
    addHeaders: {
      'x-ratelimit-limit': true,
      'x-ratelimit-remaining': true,
      'x-ratelimit-reset': true,
      'retry-after': true,
    },
    errorResponseBuilder: (_request, context) => tooManyRequests(context.after),
  });
  // Without options, createRateLimit uses the very store (and counters) of the surfaces' hooks; with
  // any option it would get a store of its own, and a socket could go around the budget.
  const limiter = app.createRateLimit();
  app.decorate(
    'spendRateLimit',
    async (ctx: RequestContext | null, ip: string, path: string): Promise<RateLimitVerdict> => {
      const request: LimitedRequest & Pick<FastifyRequest, 'routeOptions'> = {
        tesseraContext: ctx,
        ip,
        url: path,
        routeOptions: { config: {} } as FastifyRequest['routeOptions'],
      };
      const limit = await limiter(request as FastifyRequest);
      if (limit.isAllowed || !limit.isExceeded) return { allowed: true };
      return { allowed: false, error: tooManyRequests(`${limit.ttlInSeconds} seconds`) };
    },
  );
  app.addHook('onSend', async (_request, reply, payload) => {
    const secondsLeft = reply.getHeader('x-ratelimit-reset');
    if (secondsLeft !== undefined) {
      reply.header('x-ratelimit-reset', Math.ceil(Date.now() / 1000) + Number(secondsLeft));
    }
    return payload;
  });
  if (redis) app.addHook('onClose', async () => redis.disconnect());
}

/**
 * A surface spends one request of the caller's budget per request it serves (its unmatched paths
 * included). Registered in the surface's scope after its credential parser (the budget is the
 * authenticated caller's) and before idempotency (a refused request claims no key). Health,
 * readiness and metrics belong to no surface and are never limited.
 */
export function limitRequests(scope: FastifyInstance) {
  // Without options: the budget store registerRateLimit made, shared by every surface.
  scope.addHook('preValidation', scope.rateLimit());
}
