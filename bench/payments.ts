import { setServerToServerCharging } from '../src/domain/payments/payments.settings';
/**
 * Card payments: REST server-to-server charges per second with 32 concurrent clients, next to a raw
 * `pg` baseline replaying the very statements one REST charge sends (captured from the driver),
 * with the same concurrency. (The dashboard's payments list is bench/dashboard.ts.)
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

  } finally {
    await pool.end();
    await app.close();
  }
}
