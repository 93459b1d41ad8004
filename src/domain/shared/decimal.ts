/**
 * Exact decimal arithmetic for exchange rates and conversions: a decimal is an integer of units
 * with a scale (digits after the point), always bigint, never a JavaScript float.
 */
export interface Decimal {
  units: bigint;
  scale: number;
}

const DECIMAL_TEXT = /^(\d{1,30})(?:\.(\d{1,30}))?$/;

export function parseDecimal(text: string): Decimal {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) throw new Error(`Not a plain decimal: "${text}"`);
  const fraction = match[2] ?? '';
  return { units: BigInt(match[1] + fraction), scale: fraction.length };
}

/** Plain text, with exactly `scale` digits after the point ("0.00123400" for scale 8). */
export function formatDecimal({ units, scale }: Decimal): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? `.${digits.slice(digits.length - scale)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

export type Rounding = 'down' | 'up' | 'half-up';

/** numerator / denominator as an integer, rounded as asked (both non-negative). */
export function divideRounded(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  if (denominator <= 0n || numerator < 0n)
    throw new Error('divideRounded takes a non-negative numerator and a positive denominator');
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  if (rounding === 'up') return quotient + 1n;
  if (rounding === 'half-up') return remainder * 2n >= denominator ? quotient + 1n : quotient;
  return quotient;
}

const pow10 = (exponent: number) => 10n ** BigInt(exponent);

/**
 * Converts an amount in minor units of a currency with `fromExponent` digits into minor units of a
 * currency with `toExponent` digits at `rate` (units of the target per unit of the source),
 * rounded as asked: minor × rate × 10^(to − from).
 */
export function convertMinor(
  amountMinor: bigint,
  rate: Decimal,
  fromExponent: number,
  toExponent: number,
  rounding: Rounding,
): bigint {
  const numerator = amountMinor * rate.units * pow10(toExponent);
  const denominator = pow10(rate.scale + fromExponent);
  return divideRounded(numerator, denominator, rounding);
}

/** a / b × factor, to `scale` digits, rounded down: the cross rate of two mid rates. */
export function divideDecimals(a: Decimal, b: Decimal, scale: number, rounding: Rounding = 'down'): Decimal {
  if (b.units === 0n) throw new Error('Division by zero');
  // a.units/10^a.scale ÷ b.units/10^b.scale × 10^scale
  const numerator = a.units * pow10(b.scale + scale);
  const denominator = b.units * pow10(a.scale);
  return { units: divideRounded(numerator, denominator, rounding), scale };
}

/** The decimal multiplied by `numerator / denominator` (e.g. a spread in basis points), rounded down to its own scale. */
export function scaleDecimal(
  value: Decimal,
  numerator: bigint,
  denominator: bigint,
  rounding: Rounding = 'down',
): Decimal {
  return { units: divideRounded(value.units * numerator, denominator, rounding), scale: value.scale };
}
