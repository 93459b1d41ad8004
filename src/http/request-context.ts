import { FastifyInstance, FastifyRequest } from 'fastify';
import { Core } from '../domain/core';
import { RequestContext, RequestOrigin } from '../domain/shared/context';
import { publishableKeyRefused } from '../domain/identity/identity.service';
import { isPublishableKey } from '../domain/identity/credentials';
import { forbidden, unauthorized } from '../domain/shared/errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated context; null when the request carries no credential. */
    tesseraContext: RequestContext | null;
    /** Why the credential the request carried was refused, if it was. */
    tesseraAuthError: unknown;
  }
}

const header = (request: FastifyRequest, name: string): string | null => {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : null;
};

/**
 * The request's id and client address. `request.ip` is the socket's peer unless TRUST_PROXY trusts
 * it, in which case Fastify takes the address from X-Forwarded-For (only as far as the proxies
 * trusted): the one place every rate limit, fraud rule, log line and domain context gets it from.
 */
export const originOf = (request: FastifyRequest): RequestOrigin => ({ requestId: request.id, clientIp: request.ip ?? null });

export function bearerOf(authorization: string | null): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
  return match ? match[1].trim() : null;
}

/**
 * Authenticates every request once (x-api-key or Authorization: Bearer, plus
 * X-Service-Business-Id / X-Service-Mode) before any handler or GraphQL resolver runs. A
 * publishable key (x-publishable-key, or a Bearer pk_…) gives a context that only
 * `publishableCaller` accepts.
 */
export function registerRequestContext(app: FastifyInstance, core: Core) {
  app.decorateRequest('tesseraContext', null);
  app.decorateRequest('tesseraAuthError', null);
  app.addHook('preHandler', async (request) => {
    const apiKey = header(request, 'x-api-key');
    const bearer = bearerOf(header(request, 'authorization'));
    const bearerToken = bearer && !isPublishableKey(bearer) ? bearer : null;
    const publishableKey = header(request, 'x-publishable-key') ?? (bearer && isPublishableKey(bearer) ? bearer : null);
    if (!apiKey && !bearerToken && !publishableKey) return;
    try {
      if (!apiKey && !bearerToken) {
        request.tesseraContext = await core.identity.authenticatePublishableKey(core.anonymousContext(originOf(request)), publishableKey!);
        return;
      }
      request.tesseraContext = await core.identity.authenticate(core.anonymousContext(originOf(request)), {
        apiKey,
        bearerToken,
        businessIdHeader: header(request, 'x-service-business-id'),
        modeHeader: header(request, 'x-service-mode'),
      });
    } catch (error) {
      request.tesseraAuthError = error;
    }
  });
}

/**
 * The caller's context, or the reason it was refused; 401 when the request carries no credential,
 * 403 for a publishable key (it only creates card tokens).
 */
export function authenticated(request: FastifyRequest): RequestContext {
  if (request.tesseraAuthError) throw request.tesseraAuthError;
  if (!request.tesseraContext) throw unauthorized('Send x-api-key or Authorization: Bearer <token>');
  if (request.tesseraContext.actor.kind === 'publishable') throw publishableKeyRefused();
  return request.tesseraContext;
}

/** The card-token route's caller: a publishable key only (a secret key or token is refused with 403). */
export function publishableCaller(request: FastifyRequest): RequestContext {
  if (request.tesseraAuthError) throw request.tesseraAuthError;
  if (!request.tesseraContext) throw unauthorized('Send your publishable key: x-publishable-key: pk_test_… (or Authorization: Bearer pk_…)');
  if (request.tesseraContext.actor.kind !== 'publishable') {
    throw forbidden('Card tokens are created with the publishable key (pk_…), not with a secret API key or token');
  }
  return request.tesseraContext;
}
