import type { Core } from '../../domain/core';
import type { RequestContext } from '../../domain/shared/context';
import { CheckoutSessionResolver } from './checkout-session.resolver';
import { createCheckoutLoaders } from './checkout-session.loaders';

/** The checkout area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [CheckoutSessionResolver];

/** Its per-request DataLoaders. */
export const loaders = (core: Core, ctx: RequestContext) => createCheckoutLoaders(core, ctx);
