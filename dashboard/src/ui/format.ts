/** Display helpers for the API's values (docs/graphql-api.md, Money: decimal strings, upper-case currencies). */

export interface MoneyValue {
  amount: string;
  currency: string;
}

/**
 * "$1,234.50", "€12.00", or "12.500000 USDC" for a code Intl does not know. The amount is formatted
 * from its decimal string (Intl keeps every digit of a string), never through a float.
 */
export function formatMoney({ amount, currency }: MoneyValue): string {
  const format = moneyFormat(currency, fractionDigits(amount));
  return format ? format.format(amount as Intl.StringNumericLiteral) : `${amount} ${currency}`;
}

const fractionDigits = (amount: string) => amount.split('.')[1]?.length ?? 0;

/**
 * Intl's formatters, made once per kind and kept: building one costs about as much as drawing a
 * table row (the bench's profile of the payments list found two thirds of its rows' time there).
 * null: a currency code Intl does not know.
 */
const moneyFormats = new Map<string, Intl.NumberFormat | null>();
function moneyFormat(currency: string, digits: number): Intl.NumberFormat | null {
  const key = `${currency}:${digits}`;
  let format = moneyFormats.get(key);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(undefined, {
        style: 'currency',
        currency,
        maximumFractionDigits: 20,
        minimumFractionDigits: digits,
      });
    } catch {
      format = null;
    }
    moneyFormats.set(key, format);
  }
  return format;
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** A date as the API sent it (ISO 8601), formatted; what is not a date is shown as it came. */
function formatInstant(format: Intl.DateTimeFormat, iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : format.format(date);
}

export const formatDateTime = (iso: string | null | undefined) => formatInstant(dateTimeFormat, iso);
export const formatDate = (iso: string | null | undefined) => formatInstant(dateFormat, iso);

/** An enum value as words: REQUIRES_ACTION → "Requires action". */
export function humanize(value: string): string {
  const words = value.replace(/_/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
