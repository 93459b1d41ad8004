import { DomainError, ErrorCode, validationError } from './errors';

/** ISO 4217 (and USDC) exponents: the number of minor-unit digits of each currency. */
export const CURRENCY_EXPONENTS: Readonly<Record<string, number>> = Object.freeze({
  USD: 2,
  EUR: 2,
  GBP: 2,
  CAD: 2,
  AUD: 2,
  CHF: 2,
  NGN: 2,
  KES: 2,
  GHS: 2,
  ZAR: 2,
  EGP: 2,
  MAD: 2,
  TZS: 2,
  RWF: 0,
  UGX: 0,
  XOF: 0,
  XAF: 0,
  JPY: 0,
  INR: 2,
  BRL: 2,
  MXN: 2,
  USDC: 6,
});

export type CurrencyCode = string;

export function normalizeCurrency(raw: string, field = 'currency'): CurrencyCode {
  const code = raw.trim().toUpperCase();
  if (!(code in CURRENCY_EXPONENTS)) {
    throw new DomainError(ErrorCode.UNSUPPORTED_CURRENCY, `Unsupported currency "${raw}"`, {
      [field]: [`must be one of ${Object.keys(CURRENCY_EXPONENTS).join(', ')}`],
    });
  }
  return code;
}

export function exponentOf(currency: CurrencyCode): number {
  return CURRENCY_EXPONENTS[normalizeCurrency(currency)];
}

/** Largest single amount accepted, in minor units: far below the bigint column's 2^63 - 1. */
export const MAX_AMOUNT_MINOR = 10n ** 15n;

const DECIMAL = /^(\d{1,18})(?:\.(\d{1,18}))?$/;

export const DECIMAL_AMOUNT_MESSAGE = 'must be a positive decimal amount such as "100.50"';

const decimalText = (amount: string | number) =>
  typeof amount === 'number' ? numberToPlainString(amount) : amount.trim();

/** Whether a request amount is a plain non-negative decimal ("100.50", 100.5); not whether its currency allows its decimals. */
export const isDecimalAmount = (amount: string | number) => DECIMAL.test(decimalText(amount));

/**
 * Parses a decimal major-unit amount ("100.50" or 100.5) into bigint minor units.
 * Numbers are read through their shortest decimal representation, never through float arithmetic.
 */
export function toMinor(amount: string | number, currency: CurrencyCode, field = 'amount'): bigint {
  const match = DECIMAL.exec(decimalText(amount));
  if (!match) throw validationError({ [field]: [DECIMAL_AMOUNT_MESSAGE] });
  const exponent = exponentOf(currency);
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) {
    throw validationError({ [field]: [`${currency} allows at most ${exponent} decimal places`] });
  }
  const minor = BigInt(match[1] + fraction.padEnd(exponent, '0'));
  if (minor > MAX_AMOUNT_MINOR) throw validationError({ [field]: ['is too large'] });
  return minor;
}

/** A positive amount in minor units of the currency. */
export function positiveMinor(raw: string | number, currency: string, field = 'amount'): bigint {
  const minor = toMinor(raw, currency, field);
  if (minor <= 0n) throw validationError({ [field]: ['must be greater than zero'] });
  return minor;
}

/** Formats bigint minor units as a decimal major-unit string ("100.50"). */
export function toMajor(minor: bigint, currency: CurrencyCode): string {
  const exponent = exponentOf(currency);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = exponent > 0 ? `.${digits.slice(digits.length - exponent)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

function numberToPlainString(value: number): string {
  if (!Number.isFinite(value)) return 'NaN';
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

/** Minimal bigint transformer for TypeORM `bigint` columns (pg returns them as strings). */
export const bigintTransformer = {
  to: (value: bigint | null | undefined) => (value === null || value === undefined ? value : value.toString()),
  from: (value: string | null) => (value === null ? null : BigInt(value)),
};
