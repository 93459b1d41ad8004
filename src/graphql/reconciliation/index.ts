import type { Core } from '../../domain/core';
import type { RequestContext } from '../../domain/shared/context';
import { createReconciliationLoaders } from './reconciliation.loaders';
import { ReconciliationResolver } from './reconciliation.resolver';

/** Reconciliation's GraphQL resolvers (src/areas.ts): the operator's fields. */
export const resolvers = [ReconciliationResolver];

/** Its per-request DataLoaders. */
export const loaders = (core: Core, ctx: RequestContext) => createReconciliationLoaders(core, ctx);
