import { Pool } from 'pg';
import { waitFor } from '../../support/wait';
import { Violations } from './figures';

/** The violation classes of the objects the load made: each effect once, each event once, nothing left hanging. */
export const OBJECT_CLASSES = [
  'repeated ledger posting',
  'ledger disagrees with the object',
  'missing event',
  'repeated event',
  'stuck row',
] as const;

const q = async <T = any>(db: Pool, sql: string, params: unknown[] = []): Promise<T[]> =>
  (await db.query(sql, params)).rows as T[];

/** Objects whose every posting kind happens once (a wallet, by contrast, receives many deposits). */
const ONE_SHOT_REFERENCES = ['payment', 'refund', 'payout', 'treasury_payout', 'collection', 'dispute'];

/** A business operation is posted once: two journal transactions of one kind for one object are a double effect. */
export async function checkRepeatedPostings(db: Pool, violations: Violations): Promise<void> {
  const repeated = await q(
    db,
    `SELECT reference_type, reference_id, kind, count(*)::int AS n FROM journal_transactions
      WHERE reference_type = ANY($1) GROUP BY reference_type, reference_id, kind HAVING count(*) > 1`,
    [ONE_SHOT_REFERENCES],
  );
  for (const row of repeated)
    violations.add(
      'repeated ledger posting',
      `${row.kind} of ${row.reference_type} ${row.reference_id} posted ${row.n} times`,
    );
}

/**
 * Each payout's wallet entries agree with its status: a payout that failed or was cancelled was
 * reversed exactly (its entries sum to 0), any other holds its amount and fee out of the wallet;
 * the same for treasury payouts and their end-user wallets; a payment was captured once and never
 * refunded beyond its amount.
 */
export async function checkObjectsAgainstLedger(db: Pool, violations: Violations): Promise<void> {
  const payouts = await q(
    db,
    `SELECT p.id, p.status, (p.amount + p.service_fee)::text AS debit, coalesce(sum(e.amount), 0)::text AS wallet
       FROM payouts p
       LEFT JOIN journal_transactions t ON t.reference_type = 'payout' AND t.reference_id = p.id::text
       LEFT JOIN journal_entries e ON e.transaction_id = t.id AND e.account_id IN (SELECT id FROM ledger_accounts WHERE kind = 'merchant_wallet')
      GROUP BY p.id`,
  );
  for (const row of payouts) {
    const expected = ['FAILED', 'CANCELLED'].includes(row.status) ? 0n : -BigInt(row.debit);
    if (BigInt(row.wallet) !== expected)
      violations.add(
        'ledger disagrees with the object',
        `payout ${row.id} ${row.status}: wallet moved ${row.wallet}, expected ${expected}`,
      );
  }
  const treasury = await q(
    db,
    `SELECT p.id, p.status, p.amount::text AS amount, coalesce(sum(e.amount), 0)::text AS wallet
       FROM treasury_payouts p
       LEFT JOIN journal_transactions t ON t.reference_type = 'treasury_payout' AND t.reference_id = p.id::text
       LEFT JOIN journal_entries e ON e.transaction_id = t.id AND e.account_id IN (SELECT id FROM ledger_accounts WHERE kind = 'end_user_wallet')
      GROUP BY p.id`,
  );
  for (const row of treasury) {
    const wallet = BigInt(row.wallet);
    const reversed = ['FAILED', 'CANCELLED'].includes(row.status);
    if (reversed ? wallet !== 0n : wallet > -BigInt(row.amount)) {
      violations.add(
        'ledger disagrees with the object',
        `treasury payout ${row.id} ${row.status}: wallet moved ${wallet}, amount ${row.amount}`,
      );
    }
  }
  const payments = await q(
    db,
    `SELECT p.id, p.status, p.amount::text AS amount,
            (SELECT count(*)::int FROM journal_transactions t WHERE t.reference_type = 'payment' AND t.reference_id = p.id::text AND t.kind = 'card_capture') AS captures,
            (SELECT coalesce(sum(r.amount), 0)::text FROM refunds r WHERE r.payment_id = p.id) AS refunded
       FROM payments p`,
  );
  for (const row of payments) {
    const captured = ['COMPLETED', 'SETTLED', 'REFUNDED'].includes(row.status) ? 1 : 0;
    if (row.captures !== captured)
      violations.add('ledger disagrees with the object', `payment ${row.id} ${row.status}: ${row.captures} captures`);
    if (BigInt(row.refunded) > BigInt(row.amount))
      violations.add(
        'ledger disagrees with the object',
        `payment ${row.id}: refunded ${row.refunded} of ${row.amount}`,
      );
  }
}

/** Exact counts of each event type for an object in a final status; any type of the family not listed must not occur. */
type Expected = Record<string, number | [number, number]>;

const FAMILIES: Array<{
  table: string;
  family: string;
  idKey: string;
  /* the SQL of the object id in the event's data */ expected: Record<string, Expected>;
}> = [
  {
    table: 'payouts',
    family: 'payout.',
    idKey: `e.data->'object'->>'id'`,
    expected: {
      SETTLED: { 'payout.initiated': 1, 'payout.submitted': 1, 'payout.settled': 1 },
      FAILED: { 'payout.initiated': 1, 'payout.submitted': [0, 1], 'payout.review': [0, 1], 'payout.failed': 1 },
      CANCELLED: { 'payout.initiated': 1, 'payout.cancelled': 1 },
    },
  },
  {
    table: 'treasury_payouts',
    family: 'treasury.payout.',
    idKey: `e.data->'object'->>'id'`,
    expected: {
      COMPLETED: { 'treasury.payout.created': 1, 'treasury.payout.completed': 1 },
      FAILED: { 'treasury.payout.created': 1, 'treasury.payout.failed': 1 },
      CANCELLED: { 'treasury.payout.created': 1, 'treasury.payout.cancelled': 1 },
    },
  },
  {
    table: 'collections',
    family: 'collection.',
    idKey: `e.data->'object'->>'id'`,
    expected: {
      completed: { 'collection.created': 1, 'collection.processing': 1, 'collection.completed': 1 },
      failed: { 'collection.created': 1, 'collection.processing': [0, 1], 'collection.failed': 1 },
      pending: { 'collection.created': 1 },
    },
  },
  {
    table: 'payments',
    family: 'payment.',
    idKey: `e.data->>'paymentId'`,
    expected: {
      COMPLETED: { 'payment.created': 1, 'payment.completed': 1, 'payment.refunded': [0, 1000] },
      SETTLED: { 'payment.created': 1, 'payment.completed': 1, 'payment.settled': 1, 'payment.refunded': [0, 1000] },
      REFUNDED: {
        'payment.created': 1,
        'payment.completed': 1,
        'payment.settled': [0, 1],
        'payment.refunded': [1, 1000],
      },
      FAILED: { 'payment.created': 1, 'payment.failed': 1 },
    },
  },
];

/**
 * Every object in a final status has each of its events exactly once (the outbox commits an event
 * with its change, once): a missing one is a lost notification, a second one a repeated effect.
 */
export async function checkEvents(db: Pool, violations: Violations): Promise<void> {
  for (const { table, family, idKey, expected } of FAMILIES) {
    const rows = await q(
      db,
      `SELECT o.id, o.status::text AS status, e.type, count(e.id)::int AS n
         FROM ${table} o LEFT JOIN events e ON e.type LIKE $1 AND ${idKey} = o.id::text
        WHERE o.status::text = ANY($2) GROUP BY o.id, o.status, e.type`,
      [`${family}%`, Object.keys(expected)],
    );
    const byObject = new Map<string, { status: string; counts: Map<string, number> }>();
    for (const row of rows) {
      const entry = byObject.get(row.id) ?? { status: row.status, counts: new Map<string, number>() };
      if (row.type) entry.counts.set(row.type, row.n);
      byObject.set(row.id, entry);
    }
    for (const [id, { status, counts }] of byObject) {
      const want = expected[status];
      for (const type of new Set([...Object.keys(want), ...counts.keys()])) {
        const [min, max] = ((range) => (Array.isArray(range) ? range : [range, range]))(want[type] ?? 0);
        const seen = counts.get(type) ?? 0;
        if (seen < min) violations.add('missing event', `${table} ${id} ${status}: ${type} ${seen} times`);
        if (seen > max) violations.add('repeated event', `${table} ${id} ${status}: ${type} ${seen} times`);
      }
    }
  }
}

/**
 * The rows still on their way (a payout not yet settled, failed or cancelled; a treasury payout not
 * yet completed; a collection being paid; a card payment awaiting its acquirer), except those the
 * sandbox keeps by design until someone acts (account ending 3333, `test_outcome: pending`).
 */
const MOVING = `
  SELECT 'payout' AS kind, id, status::text FROM payouts
   WHERE status IN ('SUBMITTED', 'PENDING_REVIEW') OR (status = 'CREATED' AND right(destination_masked->>'accountNumber', 4) <> '3333')
  UNION ALL SELECT 'treasury payout', id, status::text FROM treasury_payouts
   WHERE status = 'PROCESSING' OR (status = 'PENDING' AND coalesce(metadata->>'test_outcome', '') <> 'pending')
  UNION ALL SELECT 'collection', id, status::text FROM collections WHERE status = 'processing'
  UNION ALL SELECT 'payment', id, status::text FROM payments WHERE status = 'PENDING'`;

/**
 * Waits until nothing is on its way any more (the worker moves every row to a final status by
 * itself); whatever still is at the deadline is a stuck row. Answers how many were moving at first.
 */
export async function checkNothingStuck(db: Pool, violations: Violations, timeoutMs = 180_000): Promise<number> {
  const first = await q(db, MOVING);
  const left = await waitFor(
    () => q(db, MOVING),
    (rows) => rows.length === 0,
    timeoutMs,
    250,
  );
  for (const row of left) violations.add('stuck row', `${row.kind} ${row.id} still ${row.status}`);
  return first.length;
}
