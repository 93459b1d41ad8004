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
  try {
    return new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency,
      maximumFractionDigits: 20,
      minimumFractionDigits: fractionDigits(amount),
    }).format(amount as Intl.StringNumericLiteral);
  } catch {
    return `${amount} ${currency}`;
  }
}

const fractionDigits = (amount: string) => amount.split('.')[1]?.length ?? 0;

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** An enum value as words: REQUIRES_ACTION → "Requires action". */
export function humanize(value: string): string {
  const words = value.replace(/_/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
