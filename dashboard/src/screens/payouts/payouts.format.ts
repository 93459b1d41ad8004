/** A recipient's masked details (`detailsMasked`, a JSON object per rail) as one line: "GTBank ****6789". */
export function maskedDestination(details: unknown): string {
  const fields = (details ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof fields[key] === 'string' ? fields[key] : '');
  const where = text('bankName') || text('networkId') || text('chain');
  const account = text('accountNumber') || text('phone') || text('address');
  return [where, account].filter(Boolean).join(' ') || '—';
}

/** Payout statuses no later change moves. */
export const FINAL_PAYOUT_STATUSES = ['SETTLED', 'FAILED', 'CANCELLED'];
