import type { Core } from '../../domain/core';
import type { RequestContext } from '../../domain/shared/context';
import { CustomerResolver } from './customer.resolver';
import { createCustomerLoaders } from './customer.loaders';

/** The customers area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [CustomerResolver];

/** Its per-request DataLoaders. */
export const loaders = (core: Core, ctx: RequestContext) => createCustomerLoaders(core, ctx);
