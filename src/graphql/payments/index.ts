import type { Core } from '../../domain/core';
import type { RequestContext } from '../../domain/shared/context';
import { PaymentResolver } from './payment.resolver';
import { createPaymentLoaders } from './payment.loaders';

/** The payments area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [PaymentResolver];

/** Its per-request DataLoaders. */
export const loaders = (core: Core, ctx: RequestContext) => createPaymentLoaders(core, ctx);
