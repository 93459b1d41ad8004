/**
 * Payouts: REST payouts created per second with 32 clients, all against one wallet (one business)
 * and spread over 32 wallets (32 businesses), next to a raw `pg` baseline of the same debit
 * transaction with the same connections (payout row, the wallet's conditional balance update,
 * the journal transaction and its entries, the event row). The recipients end in 3333, the sandbox
 * rail's "stays CREATED": the bench measures creation, not dispatch.
 */
import { Pool, PoolClient } from 'pg';
import { Mode } from '../src/domain/shared/modes';
import { AccountKind, LedgerAccount } from '../src/domain/ledger/ledger.entities';
import { RequestContext, inTransaction } from '../src/domain/shared/context';
import { buildTesseraSchema } from '../src/graphql/schema';
import { buildApp } from '../src/server/app';
import { Runtime } from '../src/runtime';
import { captureStatements } from './sql-capture';
import { load } from './util';

const CLIENTS = Number(process.env.BENCH_PAYOUT_CLIENTS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

interface BenchMerchant {
  businessId: string;
  apiKey: string;
  recipientId: string;
  wallet: LedgerAccount;
  inFlight: LedgerAccount;
  fees: LedgerAccount;
}

async function merchant(runtime: Runtime, index: number): Promise<BenchMerchant> {
  const { core } = runtime;
  const { business, credentials } = await core.identity.businesses.createBusinessWithOwnerAccount(
    core.anonymousContext(),
    {
      email: `bench-payouts-${index}@example.com`,
      password: 'bench password 1',
      name: `Bench payouts ${index}`,
    },
  );
  const ctx = new RequestContext(runtime.dataSource, { kind: 'system', name: 'bench' }, business.id, Mode.TEST);
  await core.wallets.sandboxFund(ctx, { currency: 'USD', amount: 100_000_000n });
  const { recipient } = await core.recipients.create(ctx, {
    label: 'Bench supplier',
    details: {
      rail: 'LOCAL_BANK',
      country: 'NG',
      currency: 'NGN',
      bankCode: '058',
      bankName: 'GTBank',
      accountNumber: `01234${String(index).padStart(2, '0')}3333`,
      accountName: 'Bench',
    },
  });
  const [wallet, inFlight, fees] = await inTransaction(ctx, async (tx) => [
    await core.ledger.account(tx, { kind: AccountKind.MERCHANT_WALLET, currency: 'USD', businessId: business.id }),
    await core.ledger.account(tx, { kind: AccountKind.PAYOUT_IN_FLIGHT, currency: 'USD' }),
    await core.ledger.account(tx, { kind: AccountKind.FEES_REVENUE, currency: 'USD' }),
  ]);
  return { businessId: business.id, apiKey: credentials.apiKey, recipientId: recipient.id, wallet, inFlight, fees };
}

/** The same debit transaction by hand: BEGIN, payout, wallet update, journal + entries, event, COMMIT (6 statements). */
async function rawPayout(client: PoolClient, m: BenchMerchant) {
  await client.query('BEGIN');
  const [{ id }] = (
    await client.query<{ id: string }>(
      `INSERT INTO payouts (business_id, livemode, recipient_id, rail, status, amount, currency, service_fee, dst_amount, destination_currency, rate, country, destination_masked)
     VALUES ($1, false, $2, 'LOCAL_BANK', 'CREATED', 100, 'USD', 1, 154225, 'NGN', '1542.25000000', 'NG', '{"country":"NG","accountNumber":"****3333","bankName":"GTBank"}')
     RETURNING id`,
      [m.businessId, m.recipientId],
    )
  ).rows;
  const updated = await client.query<{ balance: string }>(
    `UPDATE ledger_accounts SET balance = balance - 101 WHERE id = $1 AND balance - 101 >= 0 RETURNING balance`,
    [m.wallet.id],
  );
  await client.query(
    `WITH journal AS (INSERT INTO journal_transactions (business_id, livemode, kind, reference_type, reference_id) VALUES ($1, false, 'payout_debit', 'payout', $2) RETURNING id)
     INSERT INTO journal_entries (transaction_id, account_id, currency, amount, balance_after)
     SELECT journal.id, line.account_id, 'USD', line.amount, line.balance_after FROM journal,
       (VALUES ($3::uuid, -101::bigint, $6::bigint), ($4::uuid, 100::bigint, NULL::bigint), ($5::uuid, 1::bigint, NULL::bigint)) AS line (account_id, amount, balance_after)`,
    [m.businessId, id, m.wallet.id, m.inFlight.id, m.fees.id, updated.rows[0].balance],
  );
  await client.query(
    `INSERT INTO events (business_id, livemode, type, data) VALUES ($1, false, 'payout.initiated', $2)`,
    [m.businessId, JSON.stringify({ object: { id }, livemode: false })],
  );
  await client.query('COMMIT');
}

async function rawPerSecond(pool: Pool, merchants: BenchMerchant[]): Promise<number> {
  let done = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, index) => {
      const client = await pool.connect();
      try {
        while (performance.now() < deadline) {
          await rawPayout(client, merchants[index % merchants.length]);
          done += 1;
        }
      } finally {
        client.release();
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

export async function benchPayouts(runtime: Runtime) {
  const merchants: BenchMerchant[] = [];
  for (let index = 0; index < CLIENTS; index += 1) merchants.push(await merchant(runtime, index));
  const app = await buildApp(runtime.core, await buildTesseraSchema(runtime.core.pubSub));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1/business/payouts`;
  const pool = new Pool({ connectionString: runtime.databaseUrl, max: CLIENTS });
  pool.on('error', () => undefined);
  const bodyOf = (m: BenchMerchant) => JSON.stringify({ recipientId: m.recipientId, amount: '1.00', currency: 'USD' });
  const clientsOf = (group: BenchMerchant[]) =>
    group.map((m) => ({ headers: { 'x-api-key': m.apiKey }, body: bodyOf(m) }));
  try {
    const one = merchants[0];
    const once = () =>
      fetch(url, {
        method: 'POST',
        headers: { 'x-api-key': one.apiKey, 'content-type': 'application/json' },
        body: bodyOf(one),
      });
    if ((await once()).status !== 201) throw new Error('a bench payout was refused');
    const statements = await captureStatements(once);
    for (const [label, group] of [
      ['one wallet', [one]],
      [`${CLIENTS} wallets`, merchants],
    ] as const) {
      const rest = await load({
        url,
        method: 'POST',
        headers: {},
        concurrency: CLIENTS,
        seconds: SECONDS,
        perClient: clientsOf([...group]),
      });
      const created = (rest.statuses['201'] ?? 0) / (rest.requests / rest.perSecond);
      const raw = await rawPerSecond(pool, [...group]);
      console.log(
        `payouts:  ${label}: ${created.toFixed(0)} REST payouts/s (${CLIENTS} clients, statuses ${JSON.stringify(rest.statuses)}), p50 ${rest.p50.toFixed(1)} ms, p99 ${rest.p99.toFixed(1)} ms`,
      );
      console.log(
        `payouts:  ${label}: raw-pg baseline ${raw.toFixed(0)} debit transactions/s (6 statements), ratio ${(created / raw).toFixed(2)}`,
      );
    }
    console.log(
      `payouts:  ${statements.length} SQL statements per REST payout (transactions included), captured from the driver`,
    );
  } finally {
    await pool.end();
    await app.close();
  }
}
