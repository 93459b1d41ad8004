import { setServerToServerCharging } from '../src/domain/payments/payments.settings';
/**
 * Card payments: REST server-to-server charges per second with 32 concurrent clients, next to a raw
 * `pg` baseline replaying the very statements one REST charge sends (captured from the driver),
 * with the same concurrency; and the dashboard's payments list over GraphQL (50 rows with nested
 * refunds and disputes) per second, with the SQL statements each request sends.
 */
import crypto from 'node:crypto';
import { Pool } from 'pg';
import { Mode } from '../src/domain/identity/identity.entities';
import { RequestContext } from '../src/domain/shared/context';
import { buildTesseraSchema } from '../src/graphql/schema';
import { buildApp } from '../src/http/app';
import { Runtime } from '../src/runtime';
import { captureStatements, replay } from './sql-capture';
import { load } from './util';

const CLIENTS = Number(process.env.BENCH_CHARGE_CLIENTS ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LIST_CLIENTS = Number(process.env.BENCH_LIST_CLIENTS ?? 8);

const PAYMENTS_QUERY = `{ payments(first: 50) { edges { node {
  id status email amount { amount currency } card { brand last4 } customer { id email firstName } refunds { id amount { amount } } disputes { id status }
} } pageInfo { hasNextPage endCursor } } }`;

export async function benchPayments(runtime: Runtime) {
  const { core } = runtime;
  const { business, credentials } = await core.identity.businesses.createBusinessWithOwnerAccount(core.anonymousContext(), {
    email: 'bench-payments@example.com', password: 'bench password 1', name: 'Bench payments',
  });
  const merchant = new RequestContext(runtime.dataSource, { kind: 'system', name: 'bench' }, business.id, Mode.TEST);
  await setServerToServerCharging(merchant, true);
  const app = await buildApp(core, await buildTesseraSchema(core.pubSub));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const headers = { 'x-api-key': credentials.apiKey };
  const pool = new Pool({ connectionString: runtime.databaseUrl, max: CLIENTS });
  try {
    const chargeOnce = async (amount: string) => {
      const response = await fetch(`${base}/api/v1/business/payment/charge`, {
        method: 'POST', headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ amount, currency: 'usd', email: 'capture@example.com', card: { number: '4242424242424242', expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 2, cvv: '123' } }),
      });
      if (response.status !== 201) throw new Error(`charge answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as { data: { id: string } };
    };
    await chargeOnce('1.00');
    let paymentId = '';
    const statements = await captureStatements(async () => { paymentId = (await chargeOnce('2.00')).data.id; });
    if (process.env.BENCH_SHOW_SQL) statements.forEach((statement, index) => console.log(`  ${index + 1}. ${statement.text.replace(/\s+/g, ' ').slice(0, 160)}`));
    const [{ dedupe_key: dedupeKey }] = await runtime.dataSource.query(`SELECT dedupe_key FROM payments WHERE id = $1`, [paymentId]);

    const rest = await load({ url: `${base}/api/v1/business/payment/charge`, method: 'POST', headers, concurrency: CLIENTS, seconds: SECONDS, chargeBodies: true });
    const created = rest.statuses['201'] ?? 0;

    let replays = 0;
    const deadline = performance.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < deadline) {
          await replay(client, statements, new Map([[dedupeKey, crypto.randomBytes(32).toString('base64url')]]));
          replays += 1;
        }
      } finally {
        client.release();
      }
    }));
    const baselinePerSecond = replays / ((performance.now() - started) / 1000);
    const restPerSecond = created / (rest.requests / rest.perSecond);

    console.log(`charges:  ${restPerSecond.toFixed(0)} REST charges/s (${created} captured in ${SECONDS} s, ${CLIENTS} clients, statuses ${JSON.stringify(rest.statuses)}), p50 ${rest.p50.toFixed(1)} ms, p99 ${rest.p99.toFixed(1)} ms`);
    console.log(`charges:  ${statements.length} SQL statements per charge (transactions included), captured from the driver`);
    console.log(`baseline: ${baselinePerSecond.toFixed(0)} charges/s replaying those ${statements.length} statements on raw pg, ${CLIENTS} connections`);
    console.log(`ratio:    ${(restPerSecond / baselinePerSecond).toFixed(2)} of the baseline`);

    // The dashboard list: 50 newest payments, a refund on every other one, a customer profile for every third payer.
    const recent = await core.payments.list(merchant, {}, { kind: 'offset', page: 1, limit: 50 });
    const profiled = new Set<string>();
    for (const [index, payment] of recent.items.entries()) {
      if (index % 2 === 0) await core.refunds.refund(merchant, { paymentId: payment.id, amount: '0.50' });
      if (index % 3 === 0 && !profiled.has(payment.email)) {
        profiled.add(payment.email);
        await core.customers.create(merchant, { email: payment.email, firstName: `Payer ${index}` });
      }
    }
    const listBody = JSON.stringify({ query: PAYMENTS_QUERY });
    const listOnce = async () => {
      const response = await fetch(`${base}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: listBody });
      const result = (await response.json()) as { data?: { payments: { edges: unknown[] } }; errors?: unknown };
      if (!result.data) throw new Error(`payments list failed: ${JSON.stringify(result.errors)}`);
      return result.data.payments.edges.length;
    };
    let rows = 0;
    const listStatements = await captureStatements(async () => { rows = await listOnce(); });
    const list = await load({ url: `${base}/graphql`, method: 'POST', headers, concurrency: LIST_CLIENTS, seconds: SECONDS, body: listBody });
    console.log(`graphql:  ${list.perSecond.toFixed(0)} payments-list requests/s (${rows} rows with customer, refunds and disputes, ${LIST_CLIENTS} clients, statuses ${JSON.stringify(list.statuses)}), p50 ${list.p50.toFixed(1)} ms, p99 ${list.p99.toFixed(1)} ms`);
    console.log(`graphql:  ${listStatements.length} SQL statements per request: ${listStatements.map((statement) => statement.text.split(/\s+/).slice(0, 2).join(' ')).join(' | ')}`);
  } finally {
    await pool.end();
    await app.close();
  }
}
