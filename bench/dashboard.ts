/**
 * The dashboard's payments list: 50 payments with customer, refunds and disputes over GraphQL, next
 * to its ceiling measured in the same run with the same clients: a bare Fastify server (no plugins,
 * no credential) answering the same JSON as the GraphQL answer's `data` from one hand-written SQL
 * query (`json_agg`), the way a GraphQL-over-Postgres server such as PostGraphile answers it.
 * BENCH_ONLY=dashboard runs this section alone; BENCH_CPU_PROFILE=<file> profiles the GraphQL load.
 */
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { Mode } from '../src/domain/shared/modes';
import { RequestContext } from '../src/domain/shared/context';
import { encodeCursor } from '../src/domain/shared/pagination';
import { setServerToServerCharging } from '../src/domain/payments/payments.settings';
import { buildTesseraSchema } from '../src/graphql/schema';
import { buildApp } from '../src/server/app';
import { Runtime } from '../src/runtime';
import { captureStatements } from './sql-capture';
import { LoadResult, load, profiled } from './util';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LIST_CLIENTS = Number(process.env.BENCH_LIST_CLIENTS ?? 8);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const LIST_SIZE = 50;

export const PAYMENTS_QUERY = `{ payments(first: ${LIST_SIZE}) { edges { node {
  id status email amount { amount currency } card { brand last4 } customer { id email firstName } refunds { id amount { amount } } disputes { id status }
} } pageInfo { hasNextPage endCursor } } }`;

/**
 * PAYMENTS_QUERY's `data` in one statement: the page (one row more, for hasNextPage) with each
 * payment's customer, refunds and disputes aggregated as JSON by PostgreSQL. Amounts are formatted
 * in SQL for 2-decimal currencies (the bench charges in USD).
 */
const CEILING_SQL = `
WITH page AS (
  SELECT p.* FROM payments p
  WHERE p.business_id = $1 AND p.livemode = $2
  ORDER BY p.created_at DESC, p.id DESC LIMIT ${LIST_SIZE + 1}
), shown AS (
  SELECT * FROM page ORDER BY created_at DESC, id DESC LIMIT ${LIST_SIZE}
)
SELECT
  (SELECT count(*) FROM page) > ${LIST_SIZE} AS has_next_page,
  (SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ' ' || id FROM shown ORDER BY created_at, id LIMIT 1) AS last_position,
  (SELECT coalesce(json_agg(json_build_object('node', json_build_object(
    'id', s.id, 'status', s.status, 'email', s.email,
    'amount', json_build_object('amount', to_char(s.amount / 100.0, 'FM999999999999990.00'), 'currency', s.currency),
    'card', json_build_object('brand', s.card_brand, 'last4', s.card_last4),
    'customer', (SELECT json_build_object('id', c.id, 'email', c.email, 'firstName', c.first_name)
                 FROM customers c WHERE c.id = s.customer_id AND c.business_id = $1 AND c.livemode = $2),
    'refunds', coalesce((SELECT json_agg(json_build_object('id', r.id, 'amount', json_build_object('amount', to_char(r.amount / 100.0, 'FM999999999999990.00'))) ORDER BY r.created_at)
                 FROM refunds r WHERE r.payment_id = s.id AND r.business_id = $1 AND r.livemode = $2), '[]'),
    'disputes', coalesce((SELECT json_agg(json_build_object('id', d.id, 'status', d.status) ORDER BY d.created_at)
                 FROM disputes d WHERE d.payment_id = s.id AND d.business_id = $1 AND d.livemode = $2), '[]')
  )) ORDER BY s.created_at DESC, s.id DESC), '[]')::text FROM shown s) AS edges`;

/** The ceiling: bare Fastify, one pooled statement per request, the JSON text sent as PostgreSQL built it. */
async function startCeiling(pool: Pool, businessId: string, livemode: boolean) {
  const app = Fastify();
  app.post('/graphql', async (_request, reply) => {
    const {
      rows: [row],
    } = await pool.query<{ last_position: string | null; has_next_page: boolean; edges: string }>(CEILING_SQL, [
      businessId,
      livemode,
    ]);
    const [createdAt, id] = row.last_position ? String(row.last_position).split(' ') : [];
    const pageInfo = {
      hasNextPage: row.has_next_page,
      endCursor: createdAt ? encodeCursor([createdAt, id], {}) : null,
    };
    reply.type('application/json');
    return `{"data":{"payments":{"edges":${row.edges},"pageInfo":${JSON.stringify(pageInfo)}}}}`;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

const baseOf = (app: { server: { address(): unknown } }) => {
  const address = app.server.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
};

/** 60 charges; a refund on every other one of the newest 50, a customer profile for every third payer, one dispute. */
async function seedDashboard(runtime: Runtime, base: string, apiKey: string, merchant: RequestContext) {
  const { core } = runtime;
  for (let index = 0; index < LIST_SIZE + 10; index += 1) {
    const response = await fetch(`${base}/api/v1/business/payment/charge`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: `${10 + index}.25`,
        currency: 'usd',
        email: `payer${index % 20}@example.com`,
        card: { number: '4242424242424242', expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 2, cvv: '123' },
      }),
    });
    if (response.status !== 201) throw new Error(`charge answered ${response.status}: ${await response.text()}`);
  }
  const recent = await core.payments.list(merchant, {}, { kind: 'offset', page: 1, limit: LIST_SIZE });
  const withProfile = new Set<string>();
  for (const [index, payment] of recent.items.entries()) {
    if (index % 2 === 0) await core.refunds.refund(merchant, { paymentId: payment.id, amount: '0.50' });
    if (index % 3 === 0 && !withProfile.has(payment.email)) {
      withProfile.add(payment.email);
      await core.customers.create(merchant, { email: payment.email, firstName: `Payer ${index}` });
    }
  }
  // A dispute debits the available balance: settle a few payments first.
  for (const payment of recent.items.slice(1, 11)) await core.settlements.sandboxSettle(merchant, payment.id);
  await core.disputes.open(merchant, { paymentId: recent.items[1].id, reason: 'fraudulent' });
}

/**
 * The load, and the CPU time this process (where both servers run) spent per request meanwhile:
 * on a shared machine, requests/s follow whatever else runs; CPU per request much less so.
 */
async function measured(
  url: string,
  headers: Record<string, string>,
  body: string,
  profile = false,
): Promise<LoadResult & { cpuMs: number }> {
  // Warm-up first: a few hundred requests, so the JIT has compiled the path being measured.
  await load({ url, method: 'POST', headers, concurrency: LIST_CLIENTS, seconds: WARMUP_SECONDS, body });
  const before = process.cpuUsage();
  const run = () => load({ url, method: 'POST', headers, concurrency: LIST_CLIENTS, seconds: SECONDS, body });
  const result = await (profile ? profiled('BENCH_CPU_PROFILE', run) : run());
  const { user, system } = process.cpuUsage(before);
  return { ...result, cpuMs: (user + system) / 1000 / Math.max(1, result.requests) };
}

const describe = (name: string, result: LoadResult & { cpuMs: number }) =>
  `${result.perSecond.toFixed(0)} ${name} requests/s (${LIST_CLIENTS} clients, statuses ${JSON.stringify(result.statuses)}), p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${result.cpuMs.toFixed(2)} ms of Node CPU per request`;

export async function benchDashboard(runtime: Runtime) {
  const { core } = runtime;
  const { business, credentials } = await core.identity.businesses.createBusinessWithOwnerAccount(
    core.anonymousContext(),
    {
      email: 'bench-dashboard@example.com',
      password: 'bench password 1',
      name: 'Bench dashboard',
    },
  );
  const merchant = new RequestContext(runtime.dataSource, { kind: 'system', name: 'bench' }, business.id, Mode.TEST);
  await setServerToServerCharging(merchant, true);
  const app = await buildApp(core, await buildTesseraSchema(core.pubSub));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const pool = new Pool({ connectionString: runtime.databaseUrl, max: LIST_CLIENTS });
  const ceiling = await startCeiling(pool, business.id, false);
  try {
    const base = baseOf(app);
    const headers = { 'x-api-key': credentials.apiKey };
    await seedDashboard(runtime, base, credentials.apiKey, merchant);

    const body = JSON.stringify({ query: PAYMENTS_QUERY });
    const post = async (url: string) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body,
      });
      const result = (await response.json()) as {
        data?: { payments: { edges: Array<{ node: { customer: unknown } }> } };
        errors?: unknown;
      };
      if (!result.data) throw new Error(`payments list failed: ${JSON.stringify(result.errors)}`);
      return result.data;
    };
    let answer: Awaited<ReturnType<typeof post>> | undefined;
    const statements = await captureStatements(async () => {
      answer = await post(`${base}/graphql`);
    });
    // The ceiling only counts if it serves what the dashboard gets.
    assert.deepEqual(await post(`${baseOf(ceiling)}/graphql`), answer);
    const rows = answer!.payments.edges.length;
    const withCustomer = answer!.payments.edges.filter((edge) => edge.node.customer).length;

    const graphql = await measured(`${base}/graphql`, headers, body, true);
    const bare = await measured(`${baseOf(ceiling)}/graphql`, headers, body);
    console.log(
      `dashboard: ${describe('GraphQL payments-list', graphql)}; ${rows} rows (${withCustomer} with a customer) with refunds and disputes`,
    );
    console.log(
      `dashboard: ${statements.length} SQL statements per request: ${statements.map((statement) => statement.text.split(/\s+/).slice(0, 2).join(' ')).join(' | ')}`,
    );
    console.log(`ceiling:   ${describe('bare Fastify + one json_agg query', bare)}`);
    console.log(
      `ratio:     ${(graphql.perSecond / bare.perSecond).toFixed(2)} of the ceiling (Node CPU per request: ${(graphql.cpuMs / bare.cpuMs).toFixed(1)}x the ceiling's)`,
    );
  } finally {
    await ceiling.close();
    await pool.end();
    await app.close();
  }
}
