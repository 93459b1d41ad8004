import DataLoader from 'dataloader';
import { Core } from '../../domain/core';
import { Collection } from '../../domain/collections';
import { RequestContext } from '../../domain/shared/context';
import { alignTo } from '../shared/keyed';

/** The collections area's per-request DataLoaders. */
export interface CollectionLoaders {
  /** Collections of the caller's business and mode (null for any other id); the subscription's re-read. */
  collectionById: DataLoader<string, Collection | null>;
}

declare module '../shared/loaders' {
  interface Loaders extends CollectionLoaders {}
}

export function createCollectionLoaders(core: Core, ctx: RequestContext): CollectionLoaders {
  return {
    collectionById: new DataLoader(async (ids) =>
      alignTo(ids, await core.collections.byIds(ctx, [...ids]), (collection) => collection.id),
    ),
  };
}
