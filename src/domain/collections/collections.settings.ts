import { CollectionRailKind } from './collection.entities';

/** Deposit instructions last an hour unless the create asks otherwise (design section 9), from 5 minutes to 7 days. */
export const DEFAULT_EXPIRES_IN_SECONDS = 3_600;
export const MIN_EXPIRES_IN_SECONDS = 300;
export const MAX_EXPIRES_IN_SECONDS = 7 * 86_400;

/** Every collection settles to the business's wallet in this currency (exponent 6). */
export const SETTLEMENT_CURRENCY = 'USDC';

/**
 * Tessera's collection fee per rail, in basis points of the converted (USDC) amount, rounded up to
 * the USDC minor unit (docs/collections.md, Settlement and fees).
 */
export const COLLECTION_FEE_BPS: Readonly<Record<CollectionRailKind, number>> = Object.freeze({
  [CollectionRailKind.BANK]: 100,
  [CollectionRailKind.MOMO]: 150,
  [CollectionRailKind.EFT]: 120,
});

/** The FX fee schedule's rail for a collection rail (the FX provider prices bank and mobile money). */
export const FX_RAIL_OF = { bank: 'LOCAL_BANK', momo: 'MOBILE_MONEY', eft: 'LOCAL_BANK' } as const;

export const MAX_BUSINESS_PAYMENT_ID_LENGTH = 100;
