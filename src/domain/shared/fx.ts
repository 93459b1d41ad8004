import { Decimal, convertMinor } from './decimal';
import { CurrencyCode, exponentOf } from './money';

/**
 * The one rule of every conversion Tessera books (a collection into USDC, a card payment settling
 * in another currency): `amount` minor units of `from` at `rate` (units of `to` per unit of `from`,
 * the FX provider's offer, spread included), rounded DOWN to the minor unit of `to`, so the holder
 * is never credited a fraction the rate does not give. Exact bigint arithmetic:
 * amount × rate × 10^(exponent(to) − exponent(from)).
 */
export function convertAtRate(amount: bigint, from: CurrencyCode, to: CurrencyCode, rate: Decimal): bigint {
  return convertMinor(amount, rate, exponentOf(from), exponentOf(to), 'down');
}
