import { FastifyInstance, FastifyRequest } from 'fastify';
import { Core } from '../domain/core';
import { RequestContext } from '../domain/shared/context';
import { unauthorized } from '../domain/shared/errors';

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

export function bearerOf(authorization: string | null): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
  return match ? match[1].trim() : null;
}

/**
 * Authenticates every request once (x-api-key or Authorization: Bearer, plus
 * X-Service-Business-Id / X-Service-Mode) before any handler or GraphQL resolver runs.
 */
export function registerRequestContext(app: FastifyInstance, core: Core) {
  app.decorateRequest('tesseraContext', null);
  app.decorateRequest('tesseraAuthError', null);
  app.addHook('preHandler', async (request) => {
    const apiKey = header(request, 'x-api-key');
    const bearerToken = bearerOf(header(request, 'authorization'));
    if (!apiKey && !bearerToken) return;
    try {
      request.tesseraContext = await core.identity.authenticate(core.anonymousContext(request.id), {
        apiKey,
        bearerToken,
        businessIdHeader: header(request, 'x-service-business-id'),
        modeHeader: header(request, 'x-service-mode'),
        requestId: request.id,
      });
    } catch (error) {
      request.tesseraAuthError = error;
    }
  });
}

/** The caller's context, or the reason it was refused; 401 when the request carries no credential. */
export function authenticated(request: FastifyRequest): RequestContext {
  if (request.tesseraAuthError) throw request.tesseraAuthError;
  if (!request.tesseraContext) throw unauthorized('Send x-api-key or Authorization: Bearer <token>');
  return request.tesseraContext;
}
