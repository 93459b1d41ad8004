import { Core } from '../../domain/core';
import { RequestContext, RequestOrigin } from '../../domain/shared/context';
import { unauthorized } from '../../domain/shared/errors';
import { operatorTokenRefused, publishableKeyRefused } from '../../domain/identity';
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
  if (context.ctx.actor.kind === 'operator') throw operatorTokenRefused();
  return context.ctx;
}

/**
 * The platform operator's context, for the operator fields only (docs/graphql-api.md, "Operator
 * API"): an operator token; FORBIDDEN for any other credential, UNAUTHENTICATED without one.
 */
export function operatorCaller(context: GraphQLContext): RequestContext {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- what authentication threw (a caught value), thrown as it was
  if (context.authError) throw context.authError;
  if (!context.ctx) throw unauthorized('Send Authorization: Bearer tessera_op_… (an operator token)');
  context.ctx.requirePlatformOperator();
  return context.ctx;
}

/** node(id:) and nodes(ids:): any caller, an operator token included (it sees only the operator's types). */
export function nodeCaller(context: GraphQLContext): RequestContext {
  return context.ctx?.actor.kind === 'operator' ? operatorCaller(context) : caller(context);
}

/** Operations that need no credential (sign-up, sign-in) still refuse an operator token: it reaches only the operator fields. */
export function refuseOperator(context: GraphQLContext): void {
  if (context.ctx?.actor.kind === 'operator') throw operatorTokenRefused();
}

/** Subscriptions only ever deliver the subscriber's own business and mode. */
export function ownedBySubscriber(
  payload: { businessId: string; livemode: boolean },
  context: GraphQLContext,
): boolean {
  return !!context.ctx && payload.businessId === context.ctx.businessId && payload.livemode === context.ctx.livemode;
}
