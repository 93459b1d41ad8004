import type { StatusChange } from '../events/pubsub';
import type { CollectionStatus } from './collection.entities';

/** The collections area's topic, as named on the wire: a collection was created or changed. */
export const CollectionTopic = { COLLECTION: 'COLLECTION' } as const;

/** A collection was created or its status changed; subscribers read its current state. */
export interface CollectionChange extends StatusChange<CollectionStatus> {
  businessId: string;
  livemode: boolean;
  collectionId: string;
}

declare module '../events/pubsub' {
  interface TopicPayloads {
    [CollectionTopic.COLLECTION]: [CollectionChange];
  }
}
