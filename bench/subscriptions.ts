/**
 * Subscriptions: SUBSCRIBERS graphql-ws subscribers of one business (dashboard sessions, the JWT in
 * connectionParams as the dashboard sends it) on `paymentUpdated`, in a child process. Each round one
 * refund changes one payment; per round, the time from its commit (the after-commit publication) to
 * each subscriber's delivery; p50/p95 over the rounds of the time to the last delivery, and the
 * server's memory per connection. Baseline in the same run: a bare `ws` server (its own process)
 * sending the same payload to as many plain `ws` clients.
 */
import { PaymentTopic } from '../src/domain/payments/payments.topics';
import { Mode } from '../src/domain/shared/modes';
import { setServerToServerCharging } from '../src/domain/payments/payments.settings';
import { RequestContext } from '../src/domain/shared/context';
import { buildTesseraSchema } from '../src/graphql/schema';
import { buildApp } from '../src/server/app';
import { Runtime } from '../src/runtime';
import { CapturedStatement, captureStatements } from './sql-capture';
import { JsonLinesChild, collectGarbage, epochNow, percentile, startJsonLinesChild } from './util';

export const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const ROUNDS = Number(process.env.BENCH_SUBSCRIPTION_ROUNDS ?? 10);

/**
 * The app caps sockets per address and per credential (20 sockets by default, src/config.ts); the
 * bench's subscribers are one dashboard user on one address, so the bench's runtime raises them.
 */
export const SUBSCRIPTION_CAPS = {
  wsMaxConnectionsPerIp: SUBSCRIBERS,
  wsMaxSocketsPerCredential: SUBSCRIBERS,
  wsMaxSubscriptionsPerCredential: SUBSCRIBERS,
};

const PAYMENT_UPDATES = `subscription { paymentUpdated {
  payment { id status email amount { amount currency } amountRefunded { amount } card { brand last4 } updatedAt } previousStatus changedFields
} }`;

interface Round {
  deliveredAt: number[];
  sample: string;
}
interface Figures {
  lastMs: number[];
  allMs: number[];
  perConnection: { rss: number; heap: number };
}

type Memory = { rss: number; heapUsed: number };

export async function benchSubscriptions(runtime: Runtime) {
  const { core } = runtime;
  const { business, credentials, token } = await core.identity.businesses.createBusinessWithOwnerAccount(
    core.anonymousContext(),
    {
      email: 'bench-subscriptions@example.com',
      password: 'bench password 1',
      name: 'Bench subscriptions',
    },
  );
  const merchant = new RequestContext(runtime.dataSource, { kind: 'system', name: 'bench' }, business.id, Mode.TEST);
  await setServerToServerCharging(merchant, true);
  const app = await buildApp(core, await buildTesseraSchema(core.pubSub));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  try {
    const paymentId = await chargeOnce(`http://127.0.0.1:${port}`, credentials.apiKey);
    const subscribed = await measureApp(runtime, merchant, `ws://127.0.0.1:${port}/graphql`, token, paymentId);
    const baseline = await measureBareBroadcast(subscribed.payload);
    print(subscribed, baseline);
  } finally {
    await app.close();
  }
}

/** A captured payment large enough for every round's 0.01 refund. */
async function chargeOnce(base: string, apiKey: string): Promise<string> {
  const response = await fetch(`${base}/api/v1/business/payment/charge`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: '100.00',
      currency: 'usd',
      email: 'subscribed@example.com',
      card: { number: '4242424242424242', expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 2, cvv: '123' },
    }),
  });
  if (response.status !== 201) throw new Error(`charge answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** This process's memory once garbage is collected and V8 had a moment to hand freed pages back (RSS lags the heap). */
async function memoryNow(): Promise<Memory> {
  for (let pass = 0; pass < 3; pass += 1) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

const perConnection = (before: Memory, after: Memory, connections: number) => ({
  rss: (after.rss - before.rss) / connections,
  heap: (after.heapUsed - before.heapUsed) / connections,
});

/** The app's subscribers: memory they cost this (the server's) process, then a warm-up refund and ROUNDS measured ones. */
async function measureApp(runtime: Runtime, merchant: RequestContext, url: string, token: string, paymentId: string) {
  const { core } = runtime;
  const commits = commitTimes(runtime);
  const before = await memoryNow();
  const subscribers = startJsonLinesChild('subscribers.mjs', {
    url,
    count: SUBSCRIBERS,
    protocol: 'graphql-ws',
    connectionParams: { authorization: `Bearer ${token}` },
    query: PAYMENT_UPDATES,
  });
  try {
    await expectMessage(subscribers, 'ready');
    await listening(runtime, SUBSCRIBERS + 1);
    const after = await memoryNow();
    const rounds: Array<{ committedAt: number; round: Round }> = [];
    const oneRound = async () => {
      await core.refunds.refund(merchant, { paymentId, amount: '0.01' });
      const committedAt = await commits.next();
      rounds.push({ committedAt, round: await expectMessage<Round>(subscribers, 'round') });
    };
    for (let round = 0; round < ROUNDS; round += 1) await oneRound();
    // The last round also records its SQL (see `statements` below).
    const statements = await captureStatements(oneRound);
    const measured = rounds.slice(1);
    const figures: Figures = {
      lastMs: measured.map(({ committedAt, round }) => Math.max(...round.deliveredAt) - committedAt),
      allMs: measured.flatMap(({ committedAt, round }) => round.deliveredAt.map((at) => at - committedAt)),
      perConnection: perConnection(before, after, SUBSCRIBERS),
    };
    if (process.env.BENCH_SHOW_SQL)
      statements.forEach((statement, index) =>
        console.log(`  ${index + 1}. ${statement.text.replace(/\s+/g, ' ').slice(0, 160)}`),
      );
    return { figures, statements: sqlOfRound(statements), payload: rounds[rounds.length - 1].round.sample };
  } finally {
    await closeChild(subscribers);
    commits.stop();
  }
}

/**
 * A round's SQL: the refund's transaction up to its COMMIT, the deliveries' reads of the payment
 * after it, and whatever else ran meanwhile (every socket re-authenticates each
 * SUBSCRIPTION_RECHECK_MS, which a round may overlap).
 */
function sqlOfRound(statements: CapturedStatement[]) {
  const commit = statements.findIndex(({ text }) => text.trim().toUpperCase() === 'COMMIT');
  const afterCommit = statements.slice(commit + 1);
  const deliveries = afterCommit.filter(({ text }) => /^\s*SELECT\b[\s\S]*\bFROM\s+"payments"/i.test(text)).length;
  return { refund: commit + 1, deliveries, meanwhile: afterCommit.length - deliveries };
}

/**
 * When each payment publication happened: the store publishes in its after-commit hook, so this is
 * the commit (to within the hook's call). This listener is registered before any subscriber's, so
 * it hears each publication first.
 */
function commitTimes(runtime: Runtime) {
  const publications = runtime.core.pubSub.subscribe(PaymentTopic.PAYMENT);
  const times: number[] = [];
  const waiting: Array<(at: number) => void> = [];
  void (async () => {
    for await (const _change of publications) {
      const at = epochNow();
      const waiter = waiting.shift();
      if (waiter) waiter(at);
      else times.push(at);
    }
  })();
  return {
    next: () =>
      times.length > 0 ? Promise.resolve(times.shift()!) : new Promise<number>((resolve) => waiting.push(resolve)),
    stop: () => void publications.return(undefined),
  };
}

/** Until `count` listeners of payment changes are registered in this process (the subscriptions are live). */
async function listening(runtime: Runtime, count: number) {
  const deadline = Date.now() + 120_000;
  while ((runtime.core.pubSub.listeners.active().get(PaymentTopic.PAYMENT) ?? 0) < count) {
    if (Date.now() > deadline)
      throw new Error(
        `only ${runtime.core.pubSub.listeners.active().get(PaymentTopic.PAYMENT) ?? 0} of ${count} payment listeners registered`,
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The baseline: a bare `ws` server process sends the app's last payload to as many plain clients, ROUNDS times. */
async function measureBareBroadcast(payload: string): Promise<Figures> {
  const server = startJsonLinesChild('ws-broadcast.mjs', {}, ['--expose-gc']);
  const { port } = await expectMessage<{ port: number }>(server, 'listening');
  server.send({ type: 'memory' });
  const before = await expectMessage<Memory>(server, 'memory');
  const clients = startJsonLinesChild('subscribers.mjs', {
    url: `ws://127.0.0.1:${port}`,
    count: SUBSCRIBERS,
    protocol: 'plain',
  });
  try {
    await expectMessage(clients, 'ready');
    server.send({ type: 'memory' });
    const after = await expectMessage<Memory & { connections: number }>(server, 'memory');
    if (after.connections !== SUBSCRIBERS)
      throw new Error(`the bare server holds ${after.connections} of ${SUBSCRIBERS} clients`);
    const rounds: Array<{ sentAt: number; round: Round }> = [];
    for (let round = 0; round <= ROUNDS; round += 1) {
      server.send({ type: 'broadcast', payload });
      const { sentAt } = await expectMessage<{ sentAt: number }>(server, 'sent');
      rounds.push({ sentAt, round: await expectMessage<Round>(clients, 'round') });
    }
    const measured = rounds.slice(1);
    return {
      lastMs: measured.map(({ sentAt, round }) => Math.max(...round.deliveredAt) - sentAt),
      allMs: measured.flatMap(({ sentAt, round }) => round.deliveredAt.map((at) => at - sentAt)),
      perConnection: perConnection(before, after, SUBSCRIBERS),
    };
  } finally {
    await closeChild(clients);
    await closeChild(server);
  }
}

async function expectMessage<T>(child: JsonLinesChild, type: string): Promise<T> {
  const message = (await child.next()) as { type: string };
  if (message.type !== type)
    throw new Error(`expected "${type}" from a bench child process, got ${JSON.stringify(message)}`);
  return message as T;
}

async function closeChild(child: JsonLinesChild) {
  if (child.child.exitCode !== null) return;
  child.send({ type: 'close' });
  const timer = setTimeout(() => child.child.kill('SIGKILL'), 5_000);
  await child.exited;
  clearTimeout(timer);
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

function print(
  {
    figures: app,
    statements,
    payload,
  }: { figures: Figures; statements: { refund: number; deliveries: number; meanwhile: number }; payload: string },
  baseline: Figures,
) {
  const line = (figures: Figures) =>
    `time to last delivery p50 ${ms(percentile(figures.lastMs, 50))}, p95 ${ms(percentile(figures.lastMs, 95))}` +
    ` (each delivery p50 ${ms(percentile(figures.allMs, 50))}); memory per connection ${kib(figures.perConnection.rss)} RSS, ${kib(figures.perConnection.heap)} heap`;
  console.log(
    `subscriptions: ${SUBSCRIBERS} graphql-ws subscribers of one business, one refund per round, ${ROUNDS} rounds after a warm-up, timed from the commit`,
  );
  console.log(`subscriptions: ${line(app)}`);
  console.log(
    `subscriptions: ${statements.deliveries} SQL read(s) of the payment after the commit for all ${SUBSCRIBERS} deliveries of a round` +
      ` (the refund's own transaction: ${statements.refund} statements; ${statements.meanwhile} other statements ran meanwhile)`,
  );
  console.log(
    `baseline:      bare ws broadcast of the same ${Buffer.byteLength(payload)}-byte payload to ${SUBSCRIBERS} plain ws clients: ${line(baseline)}`,
  );
  console.log(
    `ratio:         time to last delivery p50 ${(percentile(app.lastMs, 50) / percentile(baseline.lastMs, 50)).toFixed(1)}x the baseline;` +
      ` memory per connection ${(app.perConnection.rss / baseline.perConnection.rss).toFixed(1)}x RSS, ${(app.perConnection.heap / baseline.perConnection.heap).toFixed(1)}x heap`,
  );
}
