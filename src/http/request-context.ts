import { FastifyInstance, FastifyRequest } from 'fastify';
import { Core } from '../domain/core';
import { RequestContext, RequestOrigin } from '../domain/shared/context';
import { isPublishableKey, operatorTokenRefused, publishableKeyRefused } from '../domain/identity';
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
export const originOf = (request: FastifyRequest): RequestOrigin => ({
  requestId: request.id,
  clientIp: request.ip ?? null,
});

export function bearerOf(authorization: string | null): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
  return match ? match[1].trim() : null;
}

/** What a caller presents: HTTP headers, or the same values in a socket's connectionParams. */
export interface CallerCredentials {
  apiKey: string | null;
  /** `Bearer <token>` (a JWT, or a publishable key). */
  authorization: string | null;
  publishableKey: string | null;
  businessId: string | null;
  mode: string | null;
}

/** The authenticated context (null without a credential), or why the credential was refused. */
export interface Caller {
  ctx: RequestContext | null;
  authError: unknown;
}

/**
 * The one way a caller becomes a context, for every HTTP request and for every operation over a
 * graphql-ws socket: x-api-key or Authorization: Bearer, plus X-Service-Business-Id /
 * X-Service-Mode. A publishable key (x-publishable-key, or a Bearer pk_…) gives a context that
 * only `publishableCaller` accepts.
 */
export async function resolveCaller(
  core: Core,
  credentials: CallerCredentials,
  origin: RequestOrigin,
): Promise<Caller> {
  const { apiKey } = credentials;
  const bearer = bearerOf(credentials.authorization);
  const bearerToken = bearer && !isPublishableKey(bearer) ? bearer : null;
  const publishableKey = credentials.publishableKey ?? (bearer && isPublishableKey(bearer) ? bearer : null);
  if (!apiKey && !bearerToken && !publishableKey) return { ctx: null, authError: null };
  try {
    if (!apiKey && !bearerToken) {
      return {
        ctx: await core.identity.auth.authenticatePublishableKey(core.anonymousContext(origin), publishableKey!),
        authError: null,
      };
    }
    const ctx = await core.identity.auth.authenticate(core.anonymousContext(origin), {
      apiKey,
      bearerToken,
      businessIdHeader: credentials.businessId,
      modeHeader: credentials.mode,
    });
    return { ctx, authError: null };
  } catch (error) {
    return { ctx: null, authError: error };
  }
}

/** Request state the surfaces' hooks fill in; declared once for the whole server. */
export function declareCaller(app: FastifyInstance) {
  app.decorateRequest('tesseraContext', null);
  app.decorateRequest('tesseraAuthError', null);
}

/**
 * A surface's credential parser for Tessera's own credentials (REST `/api/v1` and GraphQL):
 * authenticates each of the surface's requests once, before any handler or resolver runs.
 */
export function identifyCallers(scope: FastifyInstance, core: Core) {
  scope.addHook('preValidation', async (request) => {
    const caller = await resolveCaller(
      core,
      {
        apiKey: header(request, 'x-api-key'),
        authorization: header(request, 'authorization'),
        publishableKey: header(request, 'x-publishable-key'),
        businessId: header(request, 'x-service-business-id'),
        mode: header(request, 'x-service-mode'),
      },
      originOf(request),
    );
    request.tesseraContext = caller.ctx;
    request.tesseraAuthError = caller.authError;
  });
}

/**
 * The caller's context, or the reason it was refused; 401 when the request carries no credential,
 * 403 for a publishable key (it only creates card tokens).
 */
export function authenticated(request: FastifyRequest): RequestContext {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- what authentication threw (a caught value), thrown as it was
  if (request.tesseraAuthError) throw request.tesseraAuthError;
  if (!request.tesseraContext) throw unauthorized('Send x-api-key or Authorization: Bearer <token>');
  if (request.tesseraContext.actor.kind === 'publishable') throw publishableKeyRefused();
  if (request.tesseraContext.actor.kind === 'operator') throw operatorTokenRefused();
  return request.tesseraContext;
}

/** The card-token route's caller: a publishable key only (a secret key or token is refused with 403). */
export function publishableCaller(request: FastifyRequest): RequestContext {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- what authentication threw (a caught value), thrown as it was
  if (request.tesseraAuthError) throw request.tesseraAuthError;
  if (!request.tesseraContext)
    throw unauthorized('Send your publishable key: x-publishable-key: pk_test_… (or Authorization: Bearer pk_…)');
  if (request.tesseraContext.actor.kind !== 'publishable') {
    throw forbidden('Card tokens are created with the publishable key (pk_…), not with a secret API key or token');
  }
  return request.tesseraContext;
}
