import { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import Redis from 'ioredis';
import { Config } from '../config';
import { DomainError, ErrorCode } from '../domain/shared/errors';

const UNLIMITED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Requests are counted per authenticated credential (an API key and the tokens exchanged for it
 * share one budget) or dashboard user; anything else, including a refused credential, per client
 * IP, so that inventing a new x-api-key per request does not buy a new budget.
 */
function rateLimitKey(request: FastifyRequest): string {
  const actor = request.tesseraContext?.actor;
  if (actor?.kind === 'api') return `cred:${actor.credentialId}`;
  if (actor?.kind === 'dashboard') return `user:${actor.userId}`;
  return `ip:${request.ip}`;
}

/**
 * @fastify/rate-limit with an in-memory store, or Redis when REDIS_URL is set so that every API
 * process shares the counters. `X-RateLimit-Reset` is rewritten to the Unix time of the reset.
 * It runs as a preHandler on every request (unknown routes included), so it must be registered
 * after the request context (it keys on the authenticated caller) and before idempotency.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config) {
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1 })
    : undefined;
  await app.register(rateLimit, {
    global: false,
    max: config.rateLimitMax,
    timeWindow: config.rateLimitWindowMs,
    keyGenerator: rateLimitKey,
    allowList: (request) => UNLIMITED_PATHS.has(request.url.split('?')[0]),
    redis,
    nameSpace: 'tessera-rate-limit:',
    skipOnError: true,
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    errorResponseBuilder: (_request, context) =>
      new DomainError(ErrorCode.RATE_LIMITED, `Too many requests; retry in ${context.after}`),
  });
  app.addHook('preHandler', app.rateLimit());
  app.addHook('onSend', async (_request, reply, payload) => {
    const secondsLeft = reply.getHeader('x-ratelimit-reset');
    if (secondsLeft !== undefined) {
      reply.header('x-ratelimit-reset', Math.ceil(Date.now() / 1000) + Number(secondsLeft));
    }
    return payload;
  });
  if (redis) app.addHook('onClose', async () => redis.disconnect());
}
