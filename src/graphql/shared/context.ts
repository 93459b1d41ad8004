import { Core } from '../../domain/core';
import { RequestContext, RequestOrigin } from '../../domain/shared/context';
import { unauthorized } from '../../domain/shared/errors';
import { publishableKeyRefused } from '../../domain/identity';
import { Loaders, createLoaders } from './loaders';

/** What every resolver receives: the domain, the caller's context and per-request DataLoaders. */
export interface GraphQLContext {
  core: Core;
  ctx: RequestContext | null;
  authError: unknown;
  loaders: Loaders;
  /** The request's id and client address, for operations without a credential (sign-in, sign-up). */
  origin: RequestOrigin;
}

export function graphQLContext(
  core: Core,
  ctx: RequestContext | null,
  authError: unknown,
  origin: RequestOrigin,
): GraphQLContext {
  const loaderCtx = ctx ?? core.anonymousContext(origin);
  return { core, ctx, authError, loaders: createLoaders(core, loaderCtx), origin };
}

/** The caller's context; an UNAUTHENTICATED error when the request carries no valid credential. */
export function caller(context: GraphQLContext): RequestContext {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- what authentication threw (a caught value), thrown as it was
  if (context.authError) throw context.authError;
  if (!context.ctx) throw unauthorized('Sign in, or send x-api-key / Authorization: Bearer');
  if (context.ctx.actor.kind === 'publishable') throw publishableKeyRefused();
  return context.ctx;
}

/** Subscriptions only ever deliver the subscriber's own business and mode. */
export function ownedBySubscriber(
  payload: { businessId: string; livemode: boolean },
  context: GraphQLContext,
): boolean {
  return !!context.ctx && payload.businessId === context.ctx.businessId && payload.livemode === context.ctx.livemode;
}
