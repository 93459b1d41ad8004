import type { Core } from '../../domain/core';
import type { RequestContext } from '../../domain/shared/context';
import { PaymentLinkResolver } from './payment-link.resolver';
import { createPaymentLinkLoaders } from './payment-link.loaders';

/** The payment-links area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [PaymentLinkResolver];

/** Its per-request DataLoaders. */
export const loaders = (core: Core, ctx: RequestContext) => createPaymentLinkLoaders(core, ctx);
