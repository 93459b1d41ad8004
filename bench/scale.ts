/**
 * Scale: the payments list's p50 for a business with LARGE payments next to one with SMALL (the
 * baseline, same run, same table): the dashboard's GraphQL list (first page of 50, then the next by
 * cursor) and the REST list (`GET /api/v1/business/payments`, offset-paginated with a `total` by
 * contract: its first page and a deep one). Rows are written in SQL (generate_series), not through
 * the API. Prints each list query's EXPLAIN (ANALYZE, BUFFERS) plan and whether it scans an index.
 */
import crypto from 'node:crypto';
import { Client } from 'pg';
import { Runtime } from '../src/runtime';
import { buildTesseraSchema } from '../src/graphql/schema';
import { buildApp } from '../src/server/app';
import { captureStatements } from './sql-capture';
import { load } from './util';

const LARGE = Number(process.env.BENCH_SCALE_LARGE ?? 1_000_000);
const SMALL = Number(process.env.BENCH_SCALE_SMALL ?? 10_000);
const SECONDS = Number(process.env.BENCH_SCALE_SECONDS ?? Math.min(5, Number(process.env.BENCH_SECONDS ?? 5)));
/** A REST page deep enough to show offset paging's cost, yet inside the small business's rows. */
const DEEP_PAGE = Math.max(1, Math.floor(SMALL / 50));
const TARGET_RATIO = 1.5;
const WRITERS = Number(process.env.BENCH_SCALE_WRITERS ?? 2);
const EXPLAIN_RUNS = 5;

const LIST_QUERY = `query($after: String) { payments(first: 50, after: $after) { edges { node {
  id status email amount { amount currency } card { brand last4 } customer { id email firstName } refunds { id amount { amount } } disputes { id status }
} } pageInfo { hasNextPage endCursor } } }`;

interface Merchant {
  name: string;
  businessId: string;
  apiKey: string;
}
interface Endpoint {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export async function benchScale(runtime: Runtime) {
  const large = await merchantWith(runtime, 'large', LARGE);
  const small = await merchantWith(runtime, 'small', SMALL);
  const vacuumed = performance.now();
  // Hint bits, visibility map and statistics as a table that has lived a while would have them.
  await runtime.dataSource.query('VACUUM ANALYZE payments');
  console.log(`scale:    VACUUM ANALYZE payments in ${((performance.now() - vacuumed) / 1000).toFixed(1)} s`);
  const app = await buildApp(runtime.core, await buildTesseraSchema(runtime.core.pubSub));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    console.log(
      `scale:    payments lists at ${LARGE.toLocaleString('en')} payments in the business next to ${SMALL.toLocaleString('en')} (the baseline), 1 client, p50 over ${SECONDS} s each after a warm-up`,
    );
    const [largeEndpoints, smallEndpoints] = [await endpointsOf(base, large), await endpointsOf(base, small)];
    for (const [index, endpoint] of largeEndpoints.entries()) {
      const { atLarge, atSmall } = await compareP50(
        base,
        { merchant: large, endpoint },
        { merchant: small, endpoint: smallEndpoints[index] },
      );
      const ratio = atLarge / atSmall;
      const verdict = endpoint.label.startsWith('graphql')
        ? ` (target ${TARGET_RATIO}x: ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'})`
        : '';
      console.log(
        `scale:    ${endpoint.label.padEnd(26)} p50 ${atLarge.toFixed(1)} ms at ${short(LARGE)}, ${atSmall.toFixed(1)} ms at ${short(SMALL)}: ${ratio.toFixed(2)}x${verdict}`,
      );
    }
    console.log(
      'scale:    the REST list is offset-paginated with a `total` by contract (docs/payments.md): its COUNT reads every payment of the business, and a deep page skips its offset',
    );
    for (const [index, endpoint] of largeEndpoints.entries()) {
      printPlans(
        endpoint.label,
        await explainEndpoint(runtime, base, large, endpoint),
        await explainEndpoint(runtime, base, small, smallEndpoints[index]),
      );
    }
  } finally {
    await app.close();
  }
}

const short = (count: number) =>
  count >= 1_000_000 ? `${count / 1_000_000}M` : count >= 1000 ? `${count / 1000}k` : String(count);

/** A business with `count` captured payments, newest one second ago, one a second before that. */
async function merchantWith(runtime: Runtime, name: string, count: number): Promise<Merchant> {
  const { core } = runtime;
  const { business, credentials } = await core.identity.businesses.createBusinessWithOwnerAccount(
    core.anonymousContext(),
    {
      email: `bench-scale-${name}@example.com`,
      password: 'bench password 1',
      name: `Bench scale ${name}`,
    },
  );
  // Ids ascend with the rows (a random prefix per business, then the row number): the primary key
  // then grows at its right edge, which writes a million rows far faster than random UUIDs would.
  // The list orders by created_at first; the id only breaks ties, so the figures do not depend on it.
  const idPrefix = crypto.randomBytes(4).toString('hex');
  const started = performance.now();
  // WRITERS connections, each its own range of row numbers: the machine's cores share the work.
  const perWriter = Math.ceil(count / WRITERS);
  await Promise.all(
    Array.from({ length: WRITERS }, (_, writer) =>
      runtime.dataSource.query(
        `
    INSERT INTO payments (id, business_id, livemode, amount, currency, status, email, card_brand, card_last4, card_expiry_month,
      card_expiry_year, card_fingerprint, card_country, card_provider_ref, source, captured_at, created_at, updated_at)
    SELECT ($4 || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid, $1, false, 1000 + n % 9000, 'usd', 'COMPLETED',
      'payer' || n % 5000 || '@example.com', 'visa', '4242', 12, 2040, 'fp_' || n % 1000, 'US', 'sandbox_' || n, 'api', at, at, at
    FROM generate_series($2::int, $3::int) AS n, LATERAL (SELECT now() - n * interval '1 second' AS at) AS times`,
        [business.id, writer * perWriter + 1, Math.min(count, (writer + 1) * perWriter), idPrefix],
      ),
    ),
  );
  console.log(
    `scale:    wrote ${count.toLocaleString('en')} payments for the ${name} business in ${((performance.now() - started) / 1000).toFixed(1)} s (INSERT ... SELECT generate_series)`,
  );
  return { name, businessId: business.id, apiKey: credentials.apiKey };
}

/** The lists measured, for one merchant: the GraphQL next page's cursor is that merchant's own. */
async function endpointsOf(base: string, merchant: Merchant): Promise<Endpoint[]> {
  const firstPage: Endpoint = {
    label: 'graphql first page',
    method: 'POST',
    path: '/graphql',
    body: JSON.stringify({ query: LIST_QUERY, variables: {} }),
  };
  const answer = (await send(base, merchant, firstPage)) as { data: { payments: { pageInfo: { endCursor: string } } } };
  const after = answer.data.payments.pageInfo.endCursor;
  return [
    firstPage,
    {
      label: 'graphql next page (cursor)',
      method: 'POST',
      path: '/graphql',
      body: JSON.stringify({ query: LIST_QUERY, variables: { after } }),
    },
    { label: 'rest page 1', method: 'GET', path: '/api/v1/business/payments?limit=50&page=1' },
    {
      label: `rest page ${DEEP_PAGE} (offset)`,
      method: 'GET',
      path: `/api/v1/business/payments?limit=50&page=${DEEP_PAGE}`,
    },
  ];
}

async function send(base: string, merchant: Merchant, endpoint: Endpoint): Promise<unknown> {
  const response = await fetch(`${base}${endpoint.path}`, {
    method: endpoint.method,
    body: endpoint.body,
    headers: { 'x-api-key': merchant.apiKey, ...(endpoint.body ? { 'content-type': 'application/json' } : {}) },
  });
  const answer = (await response.json()) as { errors?: unknown; data?: unknown };
  if (response.status !== 200 || answer.errors)
    throw new Error(`${endpoint.label} answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
  return answer;
}

const ROUNDS = 2;

/**
 * p50 of one list at both sizes: a warm-up of each (not counted), then ROUNDS alternating runs of
 * SECONDS / ROUNDS each, small first; each size's figure is the mean of its runs' p50s. Alternating
 * spreads whatever else the machine does over both sizes alike.
 */
async function compareP50(
  base: string,
  large: { merchant: Merchant; endpoint: Endpoint },
  small: { merchant: Merchant; endpoint: Endpoint },
) {
  const run = async ({ merchant, endpoint }: { merchant: Merchant; endpoint: Endpoint }, seconds: number) => {
    const result = await load({
      url: `${base}${endpoint.path}`,
      method: endpoint.method,
      headers: { 'x-api-key': merchant.apiKey },
      concurrency: 1,
      seconds,
      body: endpoint.body,
    });
    if (Object.keys(result.statuses).some((status) => status !== '200'))
      throw new Error(`${endpoint.label}: statuses ${JSON.stringify(result.statuses)}`);
    return result.p50;
  };
  await run(small, 1);
  await run(large, 1);
  let [atSmall, atLarge] = [0, 0];
  for (let round = 0; round < ROUNDS; round += 1) {
    atSmall += (await run(small, SECONDS / ROUNDS)) / ROUNDS;
    atLarge += (await run(large, SECONDS / ROUNDS)) / ROUNDS;
  }
  return { atLarge, atSmall };
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
interface Explained {
  Plan: PlanNode & { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
  'Execution Time': number;
}

interface PlanFigures {
  kind: 'rows' | 'count';
  plan: string;
  milliseconds: number;
  buffers: number;
  indexed: boolean;
  sequential: boolean;
}

/** EXPLAIN (ANALYZE, BUFFERS) of every statement on payments that one request of `endpoint` sends, as the driver sent it. */
async function explainEndpoint(
  runtime: Runtime,
  base: string,
  merchant: Merchant,
  endpoint: Endpoint,
): Promise<PlanFigures[]> {
  const statements = await captureStatements(() => send(base, merchant, endpoint));
  const onPayments = statements.filter(({ text }) => /^\s*SELECT\b/i.test(text) && /\bFROM\s+"payments"/i.test(text));
  const client = new Client({ connectionString: runtime.databaseUrl });
  await client.connect();
  try {
    const figures: PlanFigures[] = [];
    for (const statement of onPayments) {
      // The fastest of EXPLAIN_RUNS: on a shared machine one run's time is mostly its wait for a core.
      let explained: Explained | null = null;
      let fastest = Infinity;
      for (let run = 0; run < EXPLAIN_RUNS; run += 1) {
        const { rows } = await client.query<{ 'QUERY PLAN': Explained[] }>(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.text}`,
          statement.values,
        );
        [explained] = rows[0]['QUERY PLAN'];
        fastest = Math.min(fastest, explained['Execution Time']);
      }
      const nodes = flatten(explained!.Plan);
      figures.push({
        kind: /COUNT\(/i.test(statement.text) ? 'count' : 'rows',
        plan: describe(explained!.Plan),
        milliseconds: fastest,
        buffers: explained!.Plan['Shared Hit Blocks'] + explained!.Plan['Shared Read Blocks'],
        indexed: nodes.some((node) => /Index/.test(node['Node Type'])),
        sequential: nodes.some((node) => node['Node Type'] === 'Seq Scan'),
      });
    }
    return figures;
  } finally {
    await client.end();
  }
}

/** The plan at the large business; buffers touched (load-independent) and the fastest execution at both sizes. */
function printPlans(label: string, atLarge: PlanFigures[], atSmall: PlanFigures[]) {
  for (const [index, plan] of atLarge.entries()) {
    const small = atSmall[index];
    console.log(
      `explain:  ${label} (${plan.kind}): ${plan.plan}; index scan: ${plan.indexed ? 'yes' : 'NO'}${plan.sequential ? ', SEQ SCAN present' : ''};` +
        ` ${plan.buffers} buffers and ${plan.milliseconds.toFixed(2)} ms at ${short(LARGE)}, ${small?.buffers ?? '?'} buffers and ${small?.milliseconds.toFixed(2) ?? '?'} ms at ${short(SMALL)}`,
    );
  }
}

const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

/** "Limit > Incremental Sort > Index Scan (ix_…)": node types, children in brackets when a node has several. */
function describe(node: PlanNode): string {
  const self = node['Index Name'] ? `${node['Node Type']} (${node['Index Name']})` : node['Node Type'];
  const children = node.Plans ?? [];
  if (children.length === 0) return self;
  if (children.length === 1) return `${self} > ${describe(children[0])}`;
  return `${self} [${children.map(describe).join(' ; ')}]`;
}
