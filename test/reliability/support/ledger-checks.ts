import { Pool } from 'pg';
import { Violations } from './figures';

/** The violation classes a ledger snapshot checks (conservation of money). */
export const LEDGER_CLASSES = [
  'unbalanced journal transaction',
  'currency does not sum to zero',
  'wallet balance differs from its entries',
  'negative balance',
  'sandbox money differs from acknowledged fundings',
] as const;

/** Money the suite put in through the sandbox (fundings and deposits), by currency: acknowledged, and sent but not yet answered. */
export class Inflows {
  private readonly acknowledged = new Map<string, bigint>();
  private readonly inFlight = new Map<string, bigint>();

  /** Around one funding request: `send` resolves true when the funding was acknowledged. */
  async track(currency: string, minor: bigint, send: () => Promise<boolean>): Promise<boolean> {
    const add = (map: Map<string, bigint>, amount: bigint) => map.set(currency, (map.get(currency) ?? 0n) + amount);
    add(this.inFlight, minor);
    try {
      const acknowledged = await send();
      if (acknowledged) add(this.acknowledged, minor);
      return acknowledged;
    } finally {
      add(this.inFlight, -minor);
    }
  }

  /** What has been acknowledged (a lower bound of what a snapshot must see) and what may have been (an upper bound). */
  bounds(): { low: Map<string, bigint>; high: Map<string, bigint> } {
    const high = new Map(this.acknowledged);
    for (const [currency, amount] of this.inFlight) high.set(currency, (high.get(currency) ?? 0n) + amount);
    return { low: new Map(this.acknowledged), high };
  }
}

/**
 * One consistent snapshot of the ledger (one REPEATABLE READ transaction), checked while the load
 * runs: every journal transaction balances per currency; every currency's entries sum to zero over
 * all accounts; each wallet's cached balance is the sum of its entries; no balance that may not go
 * negative is negative; and the sandbox's funding account gave out exactly the fundings the suite
 * saw acknowledged (between the acknowledged ones at the start and those sent by the end, while
 * requests are in flight). Adds what it finds to `violations`.
 */
export async function checkLedger(db: Pool, violations: Violations, inflows: Inflows | null): Promise<void> {
  const before = inflows?.bounds();
  const client = await db.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const unbalanced = await client.query(
      `SELECT transaction_id, currency, sum(amount)::text AS sum FROM journal_entries GROUP BY transaction_id, currency HAVING sum(amount) <> 0 LIMIT 20`,
    );
    for (const row of unbalanced.rows)
      violations.add('unbalanced journal transaction', `${row.transaction_id} ${row.currency} sums to ${row.sum}`);
    const sums = await client.query(
      `SELECT a.livemode, e.currency, sum(e.amount)::text AS sum FROM journal_entries e JOIN ledger_accounts a ON a.id = e.account_id
       GROUP BY a.livemode, e.currency HAVING sum(e.amount) <> 0`,
    );
    for (const row of sums.rows)
      violations.add('currency does not sum to zero', `${row.currency} (livemode ${row.livemode}) sums to ${row.sum}`);
    const mismatches = await client.query(
      `SELECT a.id, a.kind, a.balance::text AS cached, coalesce(sum(e.amount), 0)::text AS entries
         FROM ledger_accounts a LEFT JOIN journal_entries e ON e.account_id = a.id
        WHERE a.kind IN ('merchant_wallet', 'end_user_wallet')
        GROUP BY a.id HAVING a.balance <> coalesce(sum(e.amount), 0)`,
    );
    for (const row of mismatches.rows)
      violations.add(
        'wallet balance differs from its entries',
        `${row.kind} ${row.id}: cached ${row.cached}, entries ${row.entries}`,
      );
    const negative = await client.query(
      `SELECT a.id, a.kind, a.balance::text AS cached, coalesce(sum(e.amount), 0)::text AS entries
         FROM ledger_accounts a LEFT JOIN journal_entries e ON e.account_id = a.id
        WHERE NOT a.allow_negative GROUP BY a.id HAVING a.balance < 0 OR coalesce(sum(e.amount), 0) < 0`,
    );
    for (const row of negative.rows)
      violations.add('negative balance', `${row.kind} ${row.id}: cached ${row.cached}, entries ${row.entries}`);
    if (inflows && before) {
      const funding = await client.query(
        `SELECT e.currency, (-sum(e.amount))::text AS given FROM journal_entries e JOIN ledger_accounts a ON a.id = e.account_id
          WHERE a.kind = 'sandbox_funding' AND NOT a.livemode GROUP BY e.currency`,
      );
      await client.query('COMMIT');
      const after = inflows.bounds();
      const given = new Map<string, bigint>(funding.rows.map((row) => [row.currency, BigInt(row.given)]));
      for (const currency of new Set([...given.keys(), ...before.low.keys(), ...after.high.keys()])) {
        const seen = given.get(currency) ?? 0n;
        const low = before.low.get(currency) ?? 0n;
        const high = after.high.get(currency) ?? 0n;
        if (seen < low || seen > high)
          violations.add(
            'sandbox money differs from acknowledged fundings',
            `${currency}: the ledger gave ${seen}, acknowledged ${low}..${high}`,
          );
      }
    } else {
      await client.query('COMMIT');
    }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
