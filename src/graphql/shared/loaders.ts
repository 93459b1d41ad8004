import { AREAS } from '../../areas';
import { Core } from '../../domain/core';
import { RequestContext } from '../../domain/shared/context';

/**
 * Per-request DataLoaders: each relation is fetched with one query per request, aligned to its
 * keys. Each area's GraphQL module declares its own here (`declare module '../shared/loaders'`) and
 * creates them (`loaders` in src/graphql/<area>/index.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the areas (declaration merging)
export interface Loaders {}

/** The DataLoaders of one request, of every area (src/areas.ts). */
export function createLoaders(core: Core, ctx: RequestContext): Loaders {
  return Object.assign({}, ...AREAS.map((area) => area.graphql?.().loaders?.(core, ctx))) as Loaders;
}
