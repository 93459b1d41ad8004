/** How a payer pays a collection (design section 9). */
export type CollectionRailKind = 'bank' | 'momo' | 'eft';

/**
 * A way to collect money that a collection-rail provider offers: a country, its currency, a rail,
 * the operator networks it routes to (mobile money) and its limits per collection, in minor units
 * of `currency`.
 */
export interface CollectionChannel {
  /** The provider's own id of the channel (what a create may name as `channelId`). */
  id: string;
  country: string;
  /** Upper-case ISO code. */
  currency: string;
  rail: CollectionRailKind;
  provider: string;
  /** Operator networks the channel routes to (mobile money); null for rails without networks. */
  networks: CollectionNetwork[] | null;
  minAmount: bigint;
  maxAmount: bigint;
}

/** An operator network of a mobile-money channel: its id (what customer.networkId takes) and the name a payer knows it by. */
export interface CollectionNetwork {
  id: string;
  name: string;
}

/** The ids of a channel's operator networks (null for rails without networks). */
export const networkIdsOf = (channel: CollectionChannel): string[] | null =>
  channel.networks?.map((network) => network.id) ?? null;

/** A collection as the rail needs it to open deposit instructions. */
export interface CollectionOpening {
  /** Tessera's collection id: the rail's idempotency reference, so opening again is the same collection there. */
  collectionId: string;
  channel: CollectionChannel;
  amountMinor: bigint;
  currency: string;
  customer: { email: string | null; name: string | null; phone: string | null; networkId: string | null };
  /** Who the payer sees as the beneficiary (the merchant's name). */
  merchantName: string;
  expiresAt: Date;
}

/**
 * What the rail tells the payer to do. `hosted_page`: the rail has no instructions of its own to
 * show; Tessera serves the page that carries them (the domain fills in its URL).
 */
export type RailInstructions =
  | { kind: 'bank_transfer'; bankName: string; accountNumber: string; accountName: string; reference: string | null }
  | { kind: 'momo_prompt'; phone: string; prompt: string }
  | { kind: 'hosted_page'; bankName: string; accountNumber: string; accountName: string; reference: string };

export interface RailOpening {
  /** The rail's reference of the collection (its virtual account, prompt or EFT request). */
  providerRef: string;
  instructions: RailInstructions;
}

/**
 * What the rail reports about a collection: funds were detected (`received`, the amount the payer
 * sent, in minor units), the collection settled to Tessera (`settled`), or it failed for good.
 */
export type CollectionRailReport =
  { kind: 'received'; amount: bigint } | { kind: 'settled'; amount: bigint } | { kind: 'failed'; reason: string };

/** A collection rail (bank transfer, mobile money, EFT): lists its channels and opens deposit instructions. */
export interface CollectionRail {
  readonly name: string;
  /** Every channel, or those of one country (upper-case ISO 3166-1 alpha-2). */
  channels(country?: string): CollectionChannel[];
  open(opening: CollectionOpening): Promise<RailOpening>;
  /**
   * What the rail reports when a payer sends `amount` for the collection (the sandbox's pay helper):
   * the reports in order. A real rail reports through its callback instead.
   */
  reportsForPayment(expected: bigint, amount: bigint): CollectionRailReport[];
  /** A rail whose channels come from its provider: reads them again (the `refresh_provider_channels` cron task). */
  refreshChannels?(): Promise<void>;
}
