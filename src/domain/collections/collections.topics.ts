import type { StatusChange, Topic } from '../events/pubsub';
import type { CollectionStatus } from './collection.entities';

/** A collection was created or its status changed; subscribers read its current state. */
export interface CollectionChange extends StatusChange<CollectionStatus> {
  businessId: string;
  livemode: boolean;
  collectionId: string;
}

declare module '../events/pubsub' {
  interface TopicPayloads {
    [Topic.COLLECTION]: [CollectionChange];
  }
}
