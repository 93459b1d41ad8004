import { FastifyInstance, FastifyRequest } from 'fastify';
import { Core } from '../domain/core';
import { IdempotencyClaim } from '../domain/idempotency';
import { RequestContext } from '../domain/shared/context';
import { sha256Hex } from '../domain/shared/crypto';
import { DomainError, ErrorCode } from '../domain/shared/errors';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyRecordId: string | null;
    /** Set when a 2xx response still reports what is never stored (a GraphQL internal error, conflict or rate limit). */
    idempotencyNotStored: boolean;
  }
}

const STATUSES_NOT_STORED = new Set([409, 429]);

/** Responses with these statuses are not stored, so the same key may be retried (server errors, conflicts, rate limits). */
export const storesStatus = (status: number) => status < 500 && !STATUSES_NOT_STORED.has(status);

/**
 * Whose keys an authenticated caller shares: an API credential in its mode (a key and its tokens,
 * over HTTP or a socket), a dashboard user in a business and mode, or an operator token; null for anyone else.
 */
export function idempotencyScopeOf(ctx: RequestContext | null): string | null {
  if (ctx?.actor.kind === 'api') return `api:${ctx.actor.credentialId}:${ctx.mode}`;
  if (ctx?.actor.kind === 'dashboard') return `user:${ctx.actor.userId}:${ctx.businessId ?? '-'}:${ctx.mode}`;
  if (ctx?.actor.kind === 'operator') return `operator:${ctx.actor.tokenId}`;
  return null;
}

function scopeOf(request: FastifyRequest): string {
  const scope = idempotencyScopeOf(request.tesseraContext);
  if (scope) return scope;
  // Without a valid credential, two unrelated clients must not share (or block) each other's keys.
  const credential =
    request.headers['x-api-key'] ?? request.headers.authorization ?? request.headers['x-publishable-key'] ?? '';
  return `anon:${sha256Hex(`${request.ip}\n${String(credential)}`)}`;
}

/**
 * The `Idempotency-Key` a request gives, the same on every transport: the header (HTTP), or a
 * GraphQL request's `extensions.idempotencyKey` (HTTP and WebSocket). Given both, they must be the
 * same key (400 otherwise: which one the client meant cannot be guessed); null when neither is.
 */
export function idempotencyKeyOf(given: { header?: unknown; extensions?: unknown }): string | null {
  const header = typeof given.header === 'string' ? given.header : null;
  const extensions =
    given.extensions && typeof given.extensions === 'object' && !Array.isArray(given.extensions)
      ? (given.extensions as Record<string, unknown>).idempotencyKey
      : undefined;
  if (extensions !== undefined && typeof extensions !== 'string') {
    throw new DomainError(ErrorCode.VALIDATION_ERROR, 'Invalid idempotency key', {
      'extensions.idempotencyKey': ['must be a string of 1 to 255 characters'],
    });
  }
  if (header !== null && extensions !== undefined && header !== extensions) {
    throw new DomainError(
      ErrorCode.BAD_REQUEST,
      'The Idempotency-Key header and extensions.idempotencyKey differ; send the key once, or the same key in both',
    );
  }
  return header ?? extensions ?? null;
}

/** Request state the idempotency hooks keep; declared once for the whole server. */
export function declareIdempotency(app: FastifyInstance) {
  app.decorateRequest('idempotencyRecordId', null);
  app.decorateRequest('idempotencyNotStored', false);
}

/** Keeps the response from being stored, so a retry with the same key is judged again. */
export function markNotStored(request: FastifyRequest) {
  request.idempotencyNotStored = true;
}

export interface IdempotencyOptions {
  /** GraphQL: the key may also come as `extensions.idempotencyKey` in the body (see idempotencyKeyOf). */
  keyInExtensions?: boolean;
  /** The path a key is bound to (REST: an alias's canonical path); the request's path by default. */
  pathOf?: (request: FastifyRequest) => string;
}

const requestPath = (request: FastifyRequest) => request.url.split('?')[0];

/**
 * `Idempotency-Key` on every POST, REST and GraphQL alike (design section 5): the first response
 * is stored and replayed; a different body under the same key, or a duplicate in flight, is a 409.
 * Server errors, conflicts and rate limits (5xx, 409, 429, or a GraphQL response carrying one) are
 * not stored, so the client may retry them with the same key. The authenticated context carries the
 * request's claim on the key into the domain, whose transactions tie what they commit to it.
 */
export function registerIdempotency(scope: FastifyInstance, core: Core, options: IdempotencyOptions = {}) {
  scope.addHook('preValidation', async (request, reply) => {
    if (request.method !== 'POST') return;
    const body = request.body as { extensions?: unknown } | null | undefined;
    const key = idempotencyKeyOf({
      header: request.headers['idempotency-key'],
      extensions: options.keyInExtensions && body && typeof body === 'object' ? body.extensions : undefined,
    });
    if (key === null) return;
    const outcome = await core.idempotency.begin(core.dataSource, {
      scope: scopeOf(request),
      key,
      method: request.method,
      path: (options.pathOf ?? requestPath)(request),
      body: request.body === undefined ? '' : JSON.stringify(request.body),
    });
    if (outcome.kind === 'replay') {
      reply.header('idempotent-replayed', 'true');
      if (outcome.contentType) reply.header('content-type', outcome.contentType);
      return reply.status(outcome.status).send(outcome.body);
    }
    request.idempotencyRecordId = outcome.recordId;
    request.tesseraContext =
      request.tesseraContext?.withIdempotency(new IdempotencyClaim(outcome.recordId, outcome.made)) ?? null;
  });

  scope.addHook('onSend', async (request, reply, payload) => {
    const recordId = request.idempotencyRecordId;
    if (!recordId) return payload;
    request.idempotencyRecordId = null;
    if (!storesStatus(reply.statusCode) || request.idempotencyNotStored || typeof payload !== 'string') {
      await core.idempotency.abandon(core.dataSource, recordId);
    } else {
      const contentType = reply.getHeader('content-type');
      await core.idempotency.complete(
        core.dataSource,
        recordId,
        reply.statusCode,
        payload,
        typeof contentType === 'string' ? contentType : null,
      );
    }
    return payload;
  });
}
