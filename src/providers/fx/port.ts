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

/**
 * What an FX provider throws when it does not quote a pair at all (a currency it does not trade),
 * as distinct from a failure to reach it: callers may turn it into a refusal of the input.
 */
export class FxPairNotQuoted extends Error {
  /** Why an input naming the pair is refused, as a field message ("must be …"). */
  static refusal(from: string, to: string): string {
    return `must be a currency ${from} converts into: the exchange-rate provider does not quote ${from} to ${to}`;
  }

  constructor(
    readonly sourceCurrency: string,
    readonly destinationCurrency: string,
    detail: string,
  ) {
    super(detail);
    this.name = 'FxPairNotQuoted';
  }
}

/** Exchange rates and the fee schedule of conversions (payout quotes, schedule caps, collections). */
export interface FxProvider {
  readonly name: string;
  /** Throws FxPairNotQuoted for a pair the provider does not quote. */
  offer(request: FxQuoteRequest): Promise<FxOffer>;
  /** The mid-market rate (no spread), for valuing an amount in another currency (review thresholds, caps). */
  midRate(fromCurrency: string, toCurrency: string): Promise<Decimal>;
}
