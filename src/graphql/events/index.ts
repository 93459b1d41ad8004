import type { Core } from '../../domain/core';
import type { RequestContext } from '../../domain/shared/context';
import { EventResolver } from './event.resolver';
import { createEventLoaders } from './event.loaders';

/** The events area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [EventResolver];

/** Its per-request DataLoaders. */
export const loaders = (core: Core, ctx: RequestContext) => createEventLoaders(core, ctx);
