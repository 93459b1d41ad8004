import { Decimal, parseDecimal } from '../shared/decimal';
import { exponentOf } from '../shared/money';

/**
 * A schedule's per-run caps (docs/schedules.md, Caps), compared exactly: a cap is the decimal text
 * the merchant gave (up to 8 decimals), an amount is bigint minor units, a rate an exact Decimal.
 * No float and no rounding anywhere: a run at exactly the cap passes, one minor unit more fails.
 */
/** Local caps per schedule, one per currency. */
export const MAX_LOCAL_CAPS = 20;

export const CAP_AMOUNT = /^\d{1,20}(\.\d{1,8})?$/;
export const CAP_AMOUNT_MESSAGE = 'must be digits optionally followed by a dot and 1 to 8 digits, such as "1500.50"';

export interface LocalCap {
  currency: string;
  /** Decimal text of major units, stored and shown as given. */
  amount: string;
}

const pow10 = (exponent: number) => 10n ** BigInt(exponent);

/** Whether `minor` units of `currency` are at most `cap` (decimal major units): minor / 10^e ≤ units / 10^s. */
export function withinLocalCap(minor: bigint, currency: string, cap: string): boolean {
  const limit = parseDecimal(cap);
  return minor * pow10(limit.scale) <= limit.units * pow10(exponentOf(currency));
}

/**
 * Whether `minor` units of `currency`, worth `minor / 10^e × rate` US dollars at the mid rate
 * (`rate`: US dollars per unit of the currency), are at most `capUsd` dollars, exactly.
 */
export function withinUsdCap(minor: bigint, currency: string, rate: Decimal, capUsd: string): boolean {
  const limit = parseDecimal(capUsd);
  return minor * rate.units * pow10(limit.scale) <= limit.units * pow10(exponentOf(currency) + rate.scale);
}
