import type { Decimal } from '../../domain/shared/decimal';

/** The payout rails a fee schedule distinguishes. */
export type FxRail = 'LOCAL_BANK' | 'MOBILE_MONEY' | 'CRYPTO';

export interface FxQuoteRequest {
  sourceCurrency: string;
  destinationCurrency: string;
  rail: FxRail;
}

/** What the FX provider offers for a conversion: the rate the customer gets and the service fee rule. */
export interface FxOffer {
  /** Units of the destination currency per unit of the source currency, spread included (8 decimals). */
  rate: Decimal;
  /** Service fee in basis points of the source amount (rounded up to the source currency's minor unit). */
  serviceFeeBps: number;
}

/** Exchange rates and the fee schedule of conversions (payout quotes, schedule caps, collections). */
export interface FxProvider {
  readonly name: string;
  offer(request: FxQuoteRequest): Promise<FxOffer>;
  /** The mid-market rate (no spread), for valuing an amount in another currency (review thresholds, caps). */
  midRate(fromCurrency: string, toCurrency: string): Promise<Decimal>;
}
