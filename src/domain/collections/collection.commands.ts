import { CollectionCustomer, CollectionRailKind, CollectionStatus } from './collection.entities';

/** POST /business/collections (design section 9), in domain terms. */
export interface CreateCollectionCommand {
  /** Minor units of `currency` (an integer on the wire). */
  amount: bigint;
  currency: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  rail: CollectionRailKind;
  /** A channel of the list to use; null: the only channel of the country, currency and rail. */
  channelId: string | null;
  customer: CollectionCustomer;
  metadata: Record<string, unknown> | null;
  /** Null: the default (3600). */
  expiresInSeconds: number | null;
  /** The merchant's own reference; null: Tessera makes one. */
  businessPaymentId: string | null;
}

export interface CollectionFilters {
  status?: CollectionStatus;
}

/** GET /business/collections/channels. */
export interface ChannelFilters {
  country?: string;
}

/** Sandbox helper: the payer sends `amount` (minor units of the collection's currency). */
export interface PayCollectionCommand {
  collectionId: string;
  amount: bigint;
}

/** The hosted checkout page: the payer chose a local rail for the session (momo needs the phone and network). */
export interface StartSessionCollectionCommand {
  token: string;
  rail: CollectionRailKind;
  phone: string | null;
  networkId: string | null;
}
