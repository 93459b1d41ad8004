import { Decimal, divideDecimals, parseDecimal, scaleDecimal } from '../../domain/shared/decimal';
import { FxOffer, FxPairNotQuoted, FxProvider, FxQuoteRequest, FxRail } from './port';

/**
 * The sandbox's fixed mid-market rates: units of each currency per 1 USD (docs/payouts.md, FX).
 * USDC is pegged 1:1.
 */
export const SANDBOX_MID_RATES: Readonly<Record<string, string>> = Object.freeze({
  USD: '1',
  USDC: '1',
  EUR: '0.92',
  GBP: '0.79',
  CAD: '1.36',
  AUD: '1.52',
  CHF: '0.88',
  NGN: '1550',
  KES: '129',
  GHS: '15.2',
  ZAR: '18.4',
  EGP: '48.5',
  MAD: '9.9',
  TZS: '2650',
  RWF: '1350',
  UGX: '3750',
  XOF: '605',
  XAF: '605',
  JPY: '150',
  INR: '83.5',
  BRL: '5.4',
  MXN: '17.1',
});

/** The customer rate is the mid rate less this spread when the currencies differ (0.5%). */
export const SANDBOX_SPREAD_BPS = 50;

/** Service fee per rail, in basis points of the source amount. */
export const SANDBOX_SERVICE_FEE_BPS: Readonly<Record<FxRail, number>> = Object.freeze({
  LOCAL_BANK: 100,
  MOBILE_MONEY: 150,
  CRYPTO: 50,
});

/** Digits after the point of every rate Tessera quotes. */
export const RATE_SCALE = 8;

/**
 * The sandbox FX provider: fixed mid rates (which a test or the sandbox helper may change for the
 * process, to show that a schedule's USD cap follows the rate of run time), a fixed spread and fee
 * schedule. No network.
 */
export class SandboxFxProvider implements FxProvider {
  readonly name = 'sandbox-fx';
  private readonly overrides = new Map<string, string>();

  async offer(request: FxQuoteRequest): Promise<FxOffer> {
    const mid = await this.midRate(request.sourceCurrency, request.destinationCurrency);
    const rate =
      request.sourceCurrency === request.destinationCurrency
        ? mid
        : scaleDecimal(mid, BigInt(10_000 - SANDBOX_SPREAD_BPS), 10_000n);
    return { rate, serviceFeeBps: SANDBOX_SERVICE_FEE_BPS[request.rail] };
  }

  async midRate(fromCurrency: string, toCurrency: string): Promise<Decimal> {
    if (fromCurrency === toCurrency) return { units: 10n ** BigInt(RATE_SCALE), scale: RATE_SCALE };
    return divideDecimals(
      this.perUsd(toCurrency, fromCurrency, toCurrency),
      this.perUsd(fromCurrency, fromCurrency, toCurrency),
      RATE_SCALE,
    );
  }

  /** Sandbox only: sets (or with null restores) a currency's units per USD for this process. */
  setRatePerUsd(currency: string, perUsd: string | null): void {
    if (perUsd === null) this.overrides.delete(currency);
    else if (parseDecimal(perUsd).units <= 0n) throw new Error('A rate must be greater than zero');
    else this.overrides.set(currency, perUsd);
  }

  private perUsd(currency: string, from: string, to: string): Decimal {
    const text = this.overrides.get(currency) ?? SANDBOX_MID_RATES[currency];
    if (!text) throw new FxPairNotQuoted(from, to, `The sandbox FX provider has no rate for ${currency}`);
    return parseDecimal(text);
  }
}
