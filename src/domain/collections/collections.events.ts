import { EventNameOf } from '../events/catalog';
import { Collection, CollectionStatus } from './collection.entities';

/** The collection.* events (interface document, Events): data `{ livemode, object }`, object the collection's read shape. */
export const CollectionEvent = {
  CREATED: 'collection.created',
  PROCESSING: 'collection.processing',
  COMPLETED: 'collection.completed',
  FAILED: 'collection.failed',
  EXPIRED: 'collection.expired',
} as const;

export type CollectionEventType = EventNameOf<typeof CollectionEvent>;

export const COLLECTION_EVENT_OF_STATUS: Record<CollectionStatus, CollectionEventType> = {
  [CollectionStatus.PENDING]: CollectionEvent.CREATED,
  [CollectionStatus.PROCESSING]: CollectionEvent.PROCESSING,
  [CollectionStatus.COMPLETED]: CollectionEvent.COMPLETED,
  [CollectionStatus.FAILED]: CollectionEvent.FAILED,
  [CollectionStatus.EXPIRED]: CollectionEvent.EXPIRED,
};

/** Minor units as a JSON integer (every collection amount is far below 2^53; MAX_AMOUNT_MINOR is 10^15). */
const integer = (minor: bigint) => Number(minor);

/**
 * The documented Collection (the read operation's shape and the events' `object`), plus the fields
 * a merchant reconciles with (docs/collections.md: livemode, updatedAt, amountReceived,
 * failureReason, settlement). `amount` is an integer in minor units of `currency` (design 3).
 */
export function collectionObject(collection: Collection) {
  return {
    id: collection.id,
    object: 'collection' as const,
    status: collection.status,
    amount: integer(collection.amount),
    currency: collection.currency.toLowerCase(),
    country: collection.country,
    expiresAt: collection.expiresAt.toISOString(),
    channel: {
      rail: collection.rail,
      provider: collection.provider,
      channelId: collection.channelId,
      networkId: collection.networkId,
    },
    instructions: { ...collection.instructions },
    metadata: collection.metadata,
    businessPaymentId: collection.businessPaymentId,
    source: collection.source,
    createdAt: collection.createdAt.toISOString(),
    livemode: collection.livemode,
    updatedAt: collection.updatedAt.toISOString(),
    amountReceived: collection.amountReceived === null ? null : integer(collection.amountReceived),
    failureReason: collection.failureReason,
    settlement:
      collection.settlementNet === null
        ? null
        : {
            currency: 'usdc' as const,
            rate: collection.settlementRate!,
            grossAmount: integer(collection.settlementGross!),
            fee: integer(collection.settlementFee!),
            netAmount: integer(collection.settlementNet),
          },
  };
}

export type CollectionObject = ReturnType<typeof collectionObject>;

export const collectionEventData = (collection: Collection) => ({
  livemode: collection.livemode,
  object: collectionObject(collection),
});
