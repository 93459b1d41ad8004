/**
 * A decimal amount typed by the merchant ("50", "50.5", "1,250.00") as the integer string of minor
 * units the API takes for collections (docs/collections.md, Amount rule), without a float; null when
 * it is no amount or has more decimals than the currency.
 */
export function toMinorUnits(typed: string, decimals: number): string | null {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(typed.trim().replace(/,/g, ''));
  if (!match) return null;
  const [, whole = '', fraction = ''] = match;
  if (fraction.length > decimals) return null;
  const digits = `${whole}${fraction.padEnd(decimals, '0')}`.replace(/^0+(?=\d)/, '');
  return digits;
}

/** How many decimals a currency's amounts have, read from a Money the API answered ("1.00" → 2). */
export const decimalsOf = (amount: string): number => amount.split('.')[1]?.length ?? 0;
