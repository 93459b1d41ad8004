/**
 * The dashboard's home screen: paymentVolume (this month by day, today by hour) over a business
 * with 10,000 payments of the past year, next to the baseline a client without it would start
 * from, one page of 100 payments (the first of a hundred such pages). The payments are written by
 * one INSERT (the aggregate reads rows, however they were charged). BENCH_ONLY=volume runs this
 * section alone.
 */
import { Mode } from '../src/domain/shared/modes';
import { RequestContext } from '../src/domain/shared/context';
import { buildTesseraSchema } from '../src/graphql/schema';
import { buildApp } from '../src/server/app';
import { Runtime } from '../src/runtime';
import { captureStatements } from './sql-capture';
import { LoadResult, load } from './util';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CLIENTS = Number(process.env.BENCH_LIST_CLIENTS ?? 8);
const PAYMENTS = 10_000;

const VOLUME_FIELDS =
  'buckets { start currency count amount { amount currency } refunded { amount } } totals { currency count amount { amount } refunded { amount } }';

export async function benchVolume(runtime: Runtime) {
  const { core } = runtime;
  const { business, credentials } = await core.identity.businesses.createBusinessWithOwnerAccount(
    core.anonymousContext(),
    { email: 'bench-volume@example.com', password: 'bench password 1', name: 'Bench volume' },
  );
  const merchant = new RequestContext(runtime.dataSource, { kind: 'system', name: 'bench' }, business.id, Mode.TEST);
  // A year of payments in three currencies: one in six failed (never captured), one in six refunded.
  await merchant.em.query(
    `INSERT INTO payments (business_id, livemode, amount, currency, status, email, card_brand, card_last4,
       card_expiry_month, card_expiry_year, card_fingerprint, card_country, card_provider_ref, captured_at, created_at, amount_refunded)
     SELECT $1, false, 100 + g % 5000, (ARRAY['USD','EUR','NGN'])[1 + g % 3],
            (ARRAY['COMPLETED','SETTLED','SETTLED','FAILED','REFUNDED','SETTLED'])[1 + g % 6]::payment_status,
            'payer@example.com', 'visa', '4242', 12, 2030, 'fp', 'US', 'ref',
            CASE WHEN g % 6 = 3 THEN NULL ELSE at + interval '2 seconds' END, at,
            CASE WHEN g % 6 = 4 THEN 100 + g % 5000 ELSE 0 END
       FROM (SELECT g, now() - (g * interval '365 days' / $2) AS at FROM generate_series(1, $2) g) s`,
    [business.id, PAYMENTS],
  );
  await merchant.em.query('ANALYZE payments');
  const app = await buildApp(core, await buildTesseraSchema(core.pubSub));
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const address = app.server.address() as { port: number };
    const url = `http://127.0.0.1:${address.port}/graphql`;
    const headers = { 'x-api-key': credentials.apiKey, 'content-type': 'application/json' };
    const now = new Date();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const queries: Array<[name: string, query: string]> = [
      [
        'paymentVolume, this month by DAY',
        `{ paymentVolume(from: "${monthStart.toISOString()}", to: "${now.toISOString()}", interval: DAY, timeZone: "Europe/Paris") { ${VOLUME_FIELDS} } }`,
      ],
      [
        'paymentVolume, today by HOUR',
        `{ paymentVolume(from: "${dayStart.toISOString()}", to: "${now.toISOString()}", interval: HOUR) { ${VOLUME_FIELDS} } }`,
      ],
      [
        'paymentVolume, the year by MONTH',
        `{ paymentVolume(from: "${new Date(now.getTime() - 366 * 86_400_000).toISOString()}", to: "${now.toISOString()}", interval: MONTH) { ${VOLUME_FIELDS} } }`,
      ],
      [
        'payments(first: 100), one page',
        '{ payments(first: 100) { edges { node { id status amount { amount currency } capturedAt amountRefunded { amount } } } pageInfo { hasNextPage endCursor } } }',
      ],
    ];
    for (const [name, query] of queries) {
      const body = JSON.stringify({ query });
      let rows = 0;
      const statements = await captureStatements(async () => {
        const response = (await (await fetch(url, { method: 'POST', headers, body })).json()) as {
          data?: { paymentVolume?: { buckets: unknown[] }; payments?: { edges: unknown[] } };
          errors?: unknown;
        };
        if (!response.data) throw new Error(`${name} failed: ${JSON.stringify(response.errors)}`);
        rows = response.data.paymentVolume?.buckets.length ?? response.data.payments?.edges.length ?? 0;
      });
      await load({ url, method: 'POST', headers, concurrency: CLIENTS, seconds: WARMUP_SECONDS, body });
      const result: LoadResult = await load({
        url,
        method: 'POST',
        headers,
        concurrency: CLIENTS,
        seconds: SECONDS,
        body,
      });
      console.log(
        `volume:    ${name}: ${result.perSecond.toFixed(0)} requests/s (${CLIENTS} clients, statuses ${JSON.stringify(result.statuses)}), p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms; ${rows} rows, ${statements.length} SQL statements, over ${PAYMENTS.toLocaleString('en-US')} payments`,
      );
    }
  } finally {
    await app.close();
  }
}
