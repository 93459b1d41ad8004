import type { Core } from '../../domain/core';
import type { RequestContext } from '../../domain/shared/context';
import { CollectionResolver } from './collection.resolver';
import { createCollectionLoaders } from './collection.loaders';

/** The collections area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [CollectionResolver];

/** Its per-request DataLoaders. */
export const loaders = (core: Core, ctx: RequestContext) => createCollectionLoaders(core, ctx);
