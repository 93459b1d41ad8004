import { setServerToServerCharging } from '../src/domain/payments/payments.settings';
/**
 * Card payments: REST server-to-server charges per second with 32 concurrent clients, next to two
 * raw `pg` baselines with the same concurrency: the ceiling (the minimal hand-written charge
 * transaction: payment row, balanced journal entries, event row, job row; no ORM, no extra reads)
 * and a replay of the very statements one REST charge sends (captured from the driver). (The
 * dashboard's payments list is bench/dashboard.ts.)
 */
import crypto from 'node:crypto';
import { Pool, PoolClient } from 'pg';
import { Mode } from '../src/domain/shared/modes';
import { AccountKind } from '../src/domain/ledger/ledger.entities';
import { LedgerService } from '../src/domain/ledger/ledger.service';
import { inTransaction } from '../src/domain/shared/context';
import { RequestContext } from '../src/domain/shared/context';
import { buildTesseraSchema } from '../src/graphql/schema';
import { buildApp } from '../src/server/app';
import { Runtime } from '../src/runtime';
import { captureStatements, replay } from './sql-capture';
import { load, profiled } from './util';

const CLIENTS = Number(process.env.BENCH_CHARGE_CLIENTS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);

/** Runs `unit` back to back on each of the pool's connections for SECONDS; returns units per second. */
async function perSecondOnRawPg(pool: Pool, unit: (client: PoolClient) => Promise<unknown>): Promise<number> {
  let done = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < deadline) {
          await unit(client);
          done += 1;
        }
      } finally {
        client.release();
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

/** BEGIN, payment, journal transaction, its two entries, event, job, COMMIT. */
const CEILING_STATEMENTS = 7;

/**
 * The ceiling: what one captured card charge has to write, hand-written on raw pg in one
 * transaction (a captured payment row, a balanced journal transaction on the merchant's pending
 * and the clearing accounts, the event row, the settlement job row), with no reads. The job is
 * due in a day, so the worker leaves it alone during the bench.
 *
 * `tight` (the ceiling): written the way Tessera writes it, each statement prepared once per
 * connection (named) and the job as its row (what `rowOnly` jobs do: no `add_job`, no NOTIFY).
 * Otherwise (the ceiling of earlier runs, printed for comparison): unnamed statements, parsed and
 * planned on every execution, and the job through graphile-worker's `add_job`.
 */
async function ceilingCharge(ledger: LedgerService, merchant: RequestContext, businessId: string, tight: boolean) {
  const [pending, clearing] = await inTransaction(merchant, async (tx) => [
    await ledger.account(tx, { kind: AccountKind.MERCHANT_PENDING, currency: 'USD', businessId }),
    await ledger.account(tx, { kind: AccountKind.PROVIDER_CLEARING, currency: 'USD' }),
  ]);
  if (tight)
    await merchant.dataSource.query(
      `INSERT INTO graphile_worker._private_tasks (identifier) VALUES ('bench_ceiling') ON CONFLICT DO NOTHING`,
    );
  const run = (client: PoolClient, name: string, text: string, values: unknown[]) =>
    client.query<{ id: string }>(tight ? { name: `ceiling_${name}`, text, values } : { text, values });
  return async (client: PoolClient) => {
    await client.query('BEGIN');
    const [{ id: paymentId }] = (
      await run(
        client,
        'payment',
        `INSERT INTO payments (business_id, livemode, amount, currency, status, email, card_brand, card_last4, card_expiry_month,
         card_expiry_year, card_fingerprint, card_country, card_provider_ref, captured_at)
       VALUES ($1, false, 100, 'USD', 'COMPLETED', 'ceiling@example.com', 'visa', '4242', 12, 2030, 'fp_ceiling', 'US', 'ref', now())
       RETURNING id`,
        [businessId],
      )
    ).rows;
    const [{ id: transactionId }] = (
      await run(
        client,
        'journal',
        `INSERT INTO journal_transactions (business_id, livemode, kind, reference_type, reference_id, description)
       VALUES ($1, false, 'card_capture', 'payment', $2, 'Card payment captured') RETURNING id`,
        [businessId, paymentId],
      )
    ).rows;
    await run(
      client,
      'entries',
      `INSERT INTO journal_entries (transaction_id, account_id, currency, amount) VALUES ($1, $2, 'USD', 100), ($1, $3, 'USD', -100)`,
      [transactionId, pending.id, clearing.id],
    );
    await run(
      client,
      'event',
      `INSERT INTO events (business_id, livemode, type, data) VALUES ($1, false, 'payment.completed', $2)`,
      [businessId, JSON.stringify({ id: paymentId, status: 'COMPLETED', amount: '1.00', currency: 'USD' })],
    );
    if (tight) {
      await run(
        client,
        'job',
        `INSERT INTO graphile_worker._private_jobs (task_id, payload, run_at, max_attempts)
        VALUES ((SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'bench_ceiling'), $1::json, now() + interval '1 day', 5)`,
        [JSON.stringify({ paymentId })],
      );
    } else {
      await run(
        client,
        'job',
        `SELECT graphile_worker.add_job('bench_ceiling', $1::json, run_at := now() + interval '1 day', job_key := $2::text)`,
        [JSON.stringify({ paymentId }), `ceiling:${paymentId}`],
      );
    }
    await client.query('COMMIT');
  };
}

export async function benchPayments(runtime: Runtime) {
  const { core } = runtime;
  const { business, credentials } = await core.identity.businesses.createBusinessWithOwnerAccount(
    core.anonymousContext(),
    {
      email: 'bench-payments@example.com',
      password: 'bench password 1',
      name: 'Bench payments',
    },
  );
  const merchant = new RequestContext(runtime.dataSource, { kind: 'system', name: 'bench' }, business.id, Mode.TEST);
  await setServerToServerCharging(merchant, true);
  const app = await buildApp(core, await buildTesseraSchema(core.pubSub));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const headers = { 'x-api-key': credentials.apiKey };
  const pool = new Pool({ connectionString: runtime.databaseUrl, max: CLIENTS });
  // pool.end() resolves before its clients have closed; the database stopping meanwhile is no failure of the bench.
  pool.on('error', () => undefined);
  try {
    const chargeOnce = async (amount: string) => {
      const response = await fetch(`${base}/api/v1/business/payment/charge`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          amount,
          currency: 'usd',
          email: 'capture@example.com',
          card: {
            number: '4242424242424242',
            expiryMonth: 12,
            expiryYear: new Date().getUTCFullYear() + 2,
            cvv: '123',
          },
        }),
      });
      if (response.status !== 201) throw new Error(`charge answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as { data: { id: string } };
    };
    await chargeOnce('1.00');
    let paymentId = '';
    const statements = await captureStatements(async () => {
      paymentId = (await chargeOnce('2.00')).data.id;
    });
    if (process.env.BENCH_SHOW_SQL)
      statements.forEach((statement, index) =>
        console.log(
          `  ${index + 1}. [round trip ${statement.roundTrip}] ${statement.text.replace(/\s+/g, ' ').slice(0, 160)}`,
        ),
      );
    const [{ dedupe_key: dedupeKey }] = await runtime.dataSource.query<Array<{ dedupe_key: string }>>(
      `SELECT dedupe_key FROM payments WHERE id = $1`,
      [paymentId],
    );

    // Warm-up first, so the JIT has compiled the path being measured; then the load, and the CPU
    // time this process (the server; the load generator is a child process) spent per charge:
    // on a shared machine charges/s follow whatever else runs, CPU per charge much less so.
    const chargeLoad = {
      url: `${base}/api/v1/business/payment/charge`,
      method: 'POST',
      headers,
      concurrency: CLIENTS,
      chargeBodies: true,
    };
    if (WARMUP_SECONDS > 0) await load({ ...chargeLoad, seconds: WARMUP_SECONDS });
    const cpuBefore = process.cpuUsage();
    const rest = await profiled('BENCH_CHARGE_CPU_PROFILE', () => load({ ...chargeLoad, seconds: SECONDS }));
    const cpu = process.cpuUsage(cpuBefore);
    const created = rest.statuses['201'] ?? 0;
    const cpuMsPerCharge = (cpu.user + cpu.system) / 1000 / Math.max(1, rest.requests);

    const ceiling = await ceilingCharge(core.ledger, merchant, business.id, true);
    const ceilingPerSecond = await perSecondOnRawPg(pool, (client) => ceiling(client));
    const looseCeiling = await ceilingCharge(core.ledger, merchant, business.id, false);
    const looseCeilingPerSecond = await perSecondOnRawPg(pool, (client) => looseCeiling(client));
    const replayPerSecond = await perSecondOnRawPg(pool, (client) =>
      replay(client, statements, new Map([[dedupeKey, crypto.randomBytes(32).toString('base64url')]])),
    );
    const restPerSecond = created / (rest.requests / rest.perSecond);

    console.log(
      `charges:  ${restPerSecond.toFixed(0)} REST charges/s (${created} captured in ${SECONDS} s, ${CLIENTS} clients, statuses ${JSON.stringify(rest.statuses)}), p50 ${rest.p50.toFixed(1)} ms, p99 ${rest.p99.toFixed(1)} ms`,
    );
    const roundTrips = statements.reduce((most, statement) => Math.max(most, statement.roundTrip), 0);
    console.log(
      `charges:  ${statements.length} SQL statements per charge (transactions included) in ${roundTrips} round trips and ${statements.socketWrites} socket writes to PostgreSQL, captured from the driver`,
    );
    console.log(
      `charges:  ${cpuMsPerCharge.toFixed(2)} ms of Node CPU per charge (user ${(cpu.user / 1000 / Math.max(1, rest.requests)).toFixed(2)}, system ${(cpu.system / 1000 / Math.max(1, rest.requests)).toFixed(2)})`,
    );
    console.log(
      `ceiling:  ${ceilingPerSecond.toFixed(0)} charges/s of the minimal hand-written charge transaction on raw pg (${CEILING_STATEMENTS} statements, prepared, the job as its row), ${CLIENTS} connections`,
    );
    console.log(`ratio to ceiling: ${(restPerSecond / ceilingPerSecond).toFixed(2)}`);
    console.log(
      `ceiling as in earlier runs: ${looseCeilingPerSecond.toFixed(0)} charges/s (the same ${CEILING_STATEMENTS} statements unnamed, the job through add_job); ratio ${(restPerSecond / looseCeilingPerSecond).toFixed(2)}`,
    );
    console.log(
      `baseline: ${replayPerSecond.toFixed(0)} charges/s replaying those ${statements.length} statements on raw pg, ${CLIENTS} connections`,
    );
    console.log(`ratio:    ${(restPerSecond / replayPerSecond).toFixed(2)} of the baseline`);
  } finally {
    await pool.end();
    await app.close();
  }
}
