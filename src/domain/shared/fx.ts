import { Decimal, convertMinor, divideRounded } from './decimal';
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

/**
 * The amount of `from` that buys `target` minor units of `to` at `rate` (units of `to` per unit of
 * `from`): rounded UP to the minor unit of `from`, so what it buys is never short of `target`
 * (convertAtRate of the result is at least `target`). For paying an amount in one currency out of
 * a wallet in another (a refund of a payment that settled in another currency).
 */
export function costAtRate(target: bigint, from: CurrencyCode, to: CurrencyCode, rate: Decimal): bigint {
  if (rate.units <= 0n) throw new Error('A rate must be greater than zero');
  return divideRounded(
    target * 10n ** BigInt(rate.scale + exponentOf(from)),
    rate.units * 10n ** BigInt(exponentOf(to)),
    'up',
  );
}
