import { Decimal, divideDecimals, parseDecimal } from '../../domain/shared/decimal';
import { FxOffer, FxPairNotQuoted, FxProvider, FxQuoteRequest, FxRail } from '../fx/port';
import { YcRate } from './client';
import { YellowCardConnection } from './connection';

/** Digits after the point of every rate Tessera quotes (as the sandbox's). */
const RATE_SCALE = 8;

/** Currencies Yellow Card's rates are per unit of: USD, and USDC at par (Yellow Card settles in stablecoins). */
const DOLLARS = new Set(['USD', 'USDC']);

/**
 * Tessera's own service fee per rail, in basis points of the source amount: the same schedule as
 * the sandbox's (docs/payouts.md); Yellow Card's spread is in its rates, not here.
 */
export const YELLOWCARD_SERVICE_FEE_BPS: Readonly<Record<FxRail, number>> = Object.freeze({
  LOCAL_BANK: 100,
  MOBILE_MONEY: 150,
  CRYPTO: 50,
});

/**
 * Exchange rates from Yellow Card's rates (`GET /business/rates`, cached YELLOWCARD_RATES_TTL_MS):
 * each a currency's units per USD, `buy` (Yellow Card buys dollars: what a payer pays in a
 * collection) and `sell` (Yellow Card sells dollars: what a recipient gets in a payment). A
 * conversion from dollars to X is at X's `sell`; from X to dollars at 1 / X's `buy`; from X to Y at
 * Y's `sell` / X's `buy`. The mid rate uses the mean of buy and sell. A currency Yellow Card has
 * no rate for is FxPairNotQuoted (refused on the field); Yellow Card not answering is
 * SERVICE_UNAVAILABLE (ReachableFx).
 */
export class YellowCardFx implements FxProvider {
  readonly name = 'yellowcard';

  constructor(private readonly connection: YellowCardConnection) {}

  async offer(request: FxQuoteRequest): Promise<FxOffer> {
    const { sourceCurrency: from, destinationCurrency: to } = request;
    const fee = YELLOWCARD_SERVICE_FEE_BPS[request.rail];
    if (from === to || (DOLLARS.has(from) && DOLLARS.has(to))) return { rate: one(), serviceFeeBps: fee };
    const rates = await this.connection.currentRates();
    const perUsdPaid = DOLLARS.has(from) ? one() : decimalOf(rateOf(rates, from, from, to).buy);
    const perUsdGot = DOLLARS.has(to) ? one() : decimalOf(rateOf(rates, to, from, to).sell);
    return { rate: divideDecimals(perUsdGot, perUsdPaid, RATE_SCALE), serviceFeeBps: fee };
  }

  async midRate(fromCurrency: string, toCurrency: string): Promise<Decimal> {
    if (fromCurrency === toCurrency || (DOLLARS.has(fromCurrency) && DOLLARS.has(toCurrency))) return one();
    const rates = await this.connection.currentRates();
    const mid = (code: string) => {
      if (DOLLARS.has(code)) return one();
      const rate = rateOf(rates, code, fromCurrency, toCurrency);
      return decimalOf((rate.buy + rate.sell) / 2);
    };
    return divideDecimals(mid(toCurrency), mid(fromCurrency), RATE_SCALE);
  }
}

const one = (): Decimal => ({ units: 10n ** BigInt(RATE_SCALE), scale: RATE_SCALE });

function rateOf(rates: Map<string, YcRate>, code: string, from: string, to: string): YcRate {
  const rate = rates.get(code);
  if (!rate || !(rate.buy > 0) || !(rate.sell > 0))
    throw new FxPairNotQuoted(from, to, `Yellow Card has no rate for ${code}`);
  return rate;
}

/** A rate Yellow Card sent as a JSON number, as an exact decimal (its shortest decimal text). */
const decimalOf = (value: number): Decimal => parseDecimal(value.toFixed(RATE_SCALE).replace(/\.?0+$/, ''));
