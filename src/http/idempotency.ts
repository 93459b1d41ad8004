import { FastifyInstance, FastifyRequest } from 'fastify';
import { Core } from '../domain/core';
import { RequestContext } from '../domain/shared/context';
import { sha256Hex } from '../domain/shared/crypto';
import { canonicalPath } from '../rest/shared/aliases';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyRecordId: string | null;
    /** Set when a 2xx response still reports a failure on the server's side (a GraphQL internal error). */
    idempotencyServerFailure: boolean;
  }
}

const STATUSES_NOT_STORED = new Set([409, 429]);

/**
 * Whose keys an authenticated caller shares: an API credential in its mode (a key and its tokens,
 * over HTTP or a socket), or a dashboard user in a business and mode; null for anyone else.
 */
export function idempotencyScopeOf(ctx: RequestContext | null): string | null {
  if (ctx?.actor.kind === 'api') return `api:${ctx.actor.credentialId}:${ctx.mode}`;
  if (ctx?.actor.kind === 'dashboard') return `user:${ctx.actor.userId}:${ctx.businessId ?? '-'}:${ctx.mode}`;
  return null;
}

function scopeOf(request: FastifyRequest): string {
  const scope = idempotencyScopeOf(request.tesseraContext);
  if (scope) return scope;
  // Without a valid credential, two unrelated clients must not share (or block) each other's keys.
  const credential = request.headers['x-api-key'] ?? request.headers.authorization ?? request.headers['x-publishable-key'] ?? '';
  return `anon:${sha256Hex(`${request.ip}\n${String(credential)}`)}`;
}

/** Keeps the response from being stored, so a retry with the same key runs again. */
export function markServerFailure(request: FastifyRequest) {
  request.idempotencyServerFailure = true;
}

/**
 * `Idempotency-Key` on every POST, REST and GraphQL alike (design section 5): the first response
 * is stored and replayed; a different body under the same key, or a duplicate in flight, is a 409.
 * Server errors (5xx, or a GraphQL response carrying an internal error) are not stored, so the
 * client may retry them with the same key.
 */
export function registerIdempotency(app: FastifyInstance, core: Core) {
  app.decorateRequest('idempotencyRecordId', null);
  app.decorateRequest('idempotencyServerFailure', false);

  app.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || typeof key !== 'string') return;
    const outcome = await core.idempotency.begin(core.dataSource, {
      scope: scopeOf(request),
      key,
      method: request.method,
      path: canonicalPath(request),
      body: request.body === undefined ? '' : JSON.stringify(request.body),
    });
    if (outcome.kind === 'replay') {
      reply.header('idempotent-replayed', 'true');
      if (outcome.contentType) reply.header('content-type', outcome.contentType);
      return reply.status(outcome.status).send(outcome.body);
    }
    request.idempotencyRecordId = outcome.recordId;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const recordId = request.idempotencyRecordId;
    if (!recordId) return payload;
    request.idempotencyRecordId = null;
    const serverFailure = reply.statusCode >= 500 || request.idempotencyServerFailure;
    if (serverFailure || STATUSES_NOT_STORED.has(reply.statusCode) || typeof payload !== 'string') {
      await core.idempotency.abandon(core.dataSource, recordId);
    } else {
      const contentType = reply.getHeader('content-type');
      await core.idempotency.complete(core.dataSource, recordId, reply.statusCode, payload,
        typeof contentType === 'string' ? contentType : null);
    }
    return payload;
  });
}
