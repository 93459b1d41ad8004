import crypto from 'node:crypto';
import Stripe from 'stripe';
import { startWorker, stopWorker } from '../src/jobs/worker';
import type { ProviderEventHandler } from '../src/providers/webhooks/port';
import { TestServer, jobsAtRest, startDeliveringServer, startTestServer, waitFor, waitUntil } from './support/harness';
import { spawnBudget, spawnTs } from './support/process';

/**
 * Providers' webhooks (issues 29 and 30): `POST /providers/<provider>/webhooks` checks the
 * provider's signature over the raw body, stores each event once (provider_events) with the job
 * that applies it, and applies it exactly once, however often and however concurrently the
 * provider sends it. Stripe's events are signed here with the SDK's own test-header helper.
 */
const SECRET = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
const STRIPE_PATH = '/providers/stripe/webhooks';
/** Stripe's settings: only the webhook secret is used here (no call reaches the API base). */
const STRIPE = { secretKey: 'sk_test_inbox', webhookSecret: SECRET, apiBase: 'http://127.0.0.1:9' };

interface StoredEvent {
  event_id: string;
  type: string;
  livemode: boolean;
  applied_at: Date | null;
  outcome: string | null;
  attempts: number;
  last_error: string | null;
  payload: Record<string, unknown>;
}

const stripeEvent = (type: string, livemode = false) => ({
  id: `evt_${crypto.randomBytes(12).toString('hex')}`,
  object: 'event',
  api_version: '2025-09-30.clover',
  created: Math.floor(Date.now() / 1000),
  livemode,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  type,
  data: { object: { id: `pi_${crypto.randomBytes(12).toString('hex')}`, object: 'payment_intent', amount: 1000 } },
});

type StripeEventBody = ReturnType<typeof stripeEvent>;

/** Sends `event` as Stripe does: its JSON, signed with `secret` at `timestamp`; `body` replaces the bytes sent, not those signed. */
function sendStripe(
  server: TestServer,
  event: StripeEventBody,
  options: { secret?: string; timestamp?: number; body?: string; signed?: boolean } = {},
) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? SECRET,
    timestamp: options.timestamp,
  });
  return server.request('POST', STRIPE_PATH, {
    rawBody: options.body ?? payload,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(options.signed === false ? {} : { 'stripe-signature': signature }),
    },
  });
}

const storedEvents = (server: TestServer, eventId: string) =>
  server.runtime.dataSource.query<StoredEvent[]>(
    `SELECT event_id, type, livemode, applied_at, outcome, attempts, last_error, payload
       FROM provider_events WHERE provider = 'stripe' AND event_id = $1`,
    [eventId],
  );

const eventCount = async (server: TestServer) =>
  Number((await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM provider_events`))[0].n);

const appliedEvent = async (server: TestServer, eventId: string) => {
  const rows = await waitFor(
    () => storedEvents(server, eventId),
    (found) => found.length === 1 && found[0].applied_at !== null,
  );
  expect(rows).toHaveLength(1);
  return rows[0];
};

/** Stripe's handler of `type` on this server, as the inbox calls it. */
const stripeHandlers = (server: TestServer) =>
  server.runtime.core.providers.inboundWebhooksOf('stripe')!.handlers as Record<string, ProviderEventHandler>;

describe("Stripe's webhooks, with a worker applying them", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startDeliveringServer({ stripe: STRIPE });
    await server.runtime.dataSource.query(`CREATE TABLE handler_writes (event_id text NOT NULL)`);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  test('a signed event is answered 200, stored with its payload, and applied once by its handler', async () => {
    const handler = jest.spyOn(stripeHandlers(server), 'payment_intent.succeeded');
    const event = stripeEvent('payment_intent.succeeded');
    const response = await sendStripe(server, event);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ received: true });
    const row = await appliedEvent(server, event.id);
    expect(row).toMatchObject({ type: 'payment_intent.succeeded', livemode: false, outcome: 'applied', attempts: 1 });
    expect(row.last_error).toBeNull();
    expect(row.payload).toEqual(event);
    await jobsAtRest(server);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler.mock.calls[0][0].event).toMatchObject({
      provider: 'stripe',
      id: event.id,
      type: 'payment_intent.succeeded',
      livemode: false,
      payload: event,
    });
  });

  test('the same event sent 5 times one after another and 5 times at once: every answer 200, one row, one application', async () => {
    const handler = jest.spyOn(stripeHandlers(server), 'payment_intent.succeeded');
    const event = stripeEvent('payment_intent.succeeded');
    for (let i = 0; i < 5; i += 1) expect((await sendStripe(server, event)).status).toBe(200);
    const together = await Promise.all(Array.from({ length: 5 }, () => sendStripe(server, event)));
    expect(together.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    const row = await appliedEvent(server, event.id);
    expect(row).toMatchObject({ livemode: false, outcome: 'applied', attempts: 1 });
    await jobsAtRest(server);
    expect(handler).toHaveBeenCalledTimes(1);

    // Sent again long after it was applied: still one row, never applied again.
    expect((await sendStripe(server, event)).status).toBe(200);
    await jobsAtRest(server);
    expect(await storedEvents(server, event.id)).toHaveLength(1);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  test('a distinct event sent concurrently with others is each stored and applied once', async () => {
    const handler = jest.spyOn(stripeHandlers(server), 'payment_intent.succeeded');
    const events = Array.from({ length: 6 }, () => stripeEvent('payment_intent.succeeded'));
    const answers = await Promise.all(
      events.flatMap((event) => [sendStripe(server, event), sendStripe(server, event)]),
    );
    expect(answers.every((response) => response.status === 200)).toBe(true);
    for (const event of events) expect(await appliedEvent(server, event.id)).toMatchObject({ outcome: 'applied' });
    await jobsAtRest(server);
    expect(handler.mock.calls.map(([application]) => application.event.id).sort()).toEqual(
      events.map((event) => event.id).sort(),
    );
  });

  test('a tampered body is refused with 400 in a plain { error } body, and nothing is stored', async () => {
    const before = await eventCount(server);
    const event = stripeEvent('payment_intent.succeeded');
    const tampered = JSON.stringify({ ...event, data: { object: { ...event.data.object, amount: 1 } } });
    const response = await sendStripe(server, event, { body: tampered });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.stringContaining('signature') });
    // Even one byte more (a space the JSON parser would not mind) breaks the signature.
    expect((await sendStripe(server, event, { body: `${JSON.stringify(event)} ` })).status).toBe(400);
    expect(await storedEvents(server, event.id)).toEqual([]);
    expect(await eventCount(server)).toBe(before);
  });

  test('a replay (a signature older than the tolerance) is refused with 400, nothing stored', async () => {
    const event = stripeEvent('payment_intent.succeeded');
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    const response = await sendStripe(server, event, { timestamp: tenMinutesAgo });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/tolerance/i);
    expect(await storedEvents(server, event.id)).toEqual([]);
  });

  test('an unsigned event, or one signed with another secret, is refused with 400, nothing stored', async () => {
    const event = stripeEvent('payment_intent.succeeded');
    const unsigned = await sendStripe(server, event, { signed: false });
    expect(unsigned.status).toBe(400);
    expect(unsigned.body).toEqual({ error: expect.stringMatching(/Stripe-Signature/) });
    const otherSecret = await sendStripe(server, event, { secret: 'whsec_not_this_endpoints' });
    expect(otherSecret.status).toBe(400);
    const noBody = await server.request('POST', STRIPE_PATH, { headers: { 'stripe-signature': 't=1,v1=00' } });
    expect(noBody.status).toBe(400);
    expect(await storedEvents(server, event.id)).toEqual([]);
  });

  test("a live-mode event signed with this endpoint's secret, to a server whose Stripe key is a test key, is refused with 400, nothing stored", async () => {
    const event = stripeEvent('payment_intent.succeeded', true);
    const response = await sendStripe(server, event);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: "A live-mode event, and this server's Stripe key is a test-mode key",
    });
    expect(await storedEvents(server, event.id)).toEqual([]);
  });

  test('a NUL character (U+0000) in a string of the event, which PostgreSQL cannot keep, is stored as U+FFFD: 200, not a 500 sent again for days', async () => {
    const plain = stripeEvent('customer.created');
    const event = { ...plain, data: { object: { ...plain.data.object, name: 'Ada\u0000Lovelace' } } };
    expect((await sendStripe(server, event)).status).toBe(200);
    const [row] = await storedEvents(server, event.id);
    expect((row.payload as typeof event).data.object.name).toBe('Ada\uFFFDLovelace');
    expect(row).toMatchObject({ outcome: 'ignored' });
  });

  test('an event of a type without a handler is stored and marked applied as ignored', async () => {
    const event = stripeEvent('customer.created');
    expect((await sendStripe(server, event)).status).toBe(200);
    const [row] = await storedEvents(server, event.id);
    expect(row).toMatchObject({ type: 'customer.created', outcome: 'ignored', attempts: 0 });
    expect(row.applied_at).not.toBeNull();
  });

  test('a handler that throws once is retried by the job queue, its error kept; its writes commit once, with the mark', async () => {
    let calls = 0;
    jest.spyOn(stripeHandlers(server), 'payment_intent.succeeded').mockImplementation(async ({ tx, event }) => {
      calls += 1;
      await tx.em.query(`INSERT INTO handler_writes (event_id) VALUES ($1)`, [event.id]);
      if (calls === 1) throw new Error('the ledger was busy');
    });
    const event = stripeEvent('payment_intent.succeeded');
    expect((await sendStripe(server, event)).status).toBe(200);
    const failed = await waitFor(
      () => storedEvents(server, event.id),
      (rows) => rows[0]?.last_error !== null && rows[0]?.last_error !== undefined,
    );
    expect(failed[0]).toMatchObject({ applied_at: null, attempts: 1, last_error: 'Error: the ledger was busy' });
    const row = await appliedEvent(server, event.id);
    expect(row).toMatchObject({ outcome: 'applied', attempts: 2, last_error: 'Error: the ledger was busy' });
    await jobsAtRest(server);
    expect(calls).toBe(2);
    const writes = await server.runtime.dataSource.query(`SELECT event_id FROM handler_writes WHERE event_id = $1`, [
      event.id,
    ]);
    expect(writes).toEqual([{ event_id: event.id }]);
  });

  test("an unknown provider's path is a 404 in the same plain body; the routes are in no OpenAPI document", async () => {
    const unknown = await server.request('POST', '/providers/nobody/webhooks', { rawBody: '{}' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: expect.any(String) });
    const rest = await server.request('GET', '/api/v1/openapi.json');
    const v1 = await server.request('GET', '/v1/openapi.json');
    for (const document of [rest.body, v1.body])
      expect(Object.keys(document.paths).filter((path) => path.includes('/providers/'))).toEqual([]);
  });
});

describe("Stripe's webhooks received while no worker runs (a crash between store and apply)", () => {
  let server: TestServer;

  beforeAll(async () => {
    // A budget of 3 requests per window: the provider's burst below is far beyond it.
    server = await startTestServer({ stripe: STRIPE, rateLimitMax: 3, workerPollIntervalMs: 50 });
  });
  afterAll(async () => {
    await server?.close();
  });

  test('events stored while no worker runs are applied once a worker starts', async () => {
    const handler = jest.spyOn(stripeHandlers(server), 'payment_intent.succeeded');
    const events = Array.from({ length: 10 }, () => stripeEvent('payment_intent.succeeded'));
    // A provider's burst (Stripe sending what queued up during an outage) is never rate limited.
    for (const event of events) expect((await sendStripe(server, event)).status).toBe(200);
    for (const event of events)
      expect(await storedEvents(server, event.id)).toEqual([
        expect.objectContaining({ applied_at: null, outcome: null, attempts: 0 }),
      ]);
    expect(handler).not.toHaveBeenCalled();

    const worker = await startWorker(server.runtime.core, server.databaseUrl, () => undefined);
    try {
      for (const event of events) expect(await appliedEvent(server, event.id)).toMatchObject({ outcome: 'applied' });
      await jobsAtRest(server);
    } finally {
      await stopWorker(worker);
    }
    expect(handler).toHaveBeenCalledTimes(events.length);
  });
});

describe('a worker killed (SIGKILL) inside the transaction applying an event', () => {
  const STALL_AFTER_MS = 1500;
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      stripe: STRIPE,
      jobStallAfterMs: STALL_AFTER_MS,
      workerPollIntervalMs: 50,
    });
    await server.runtime.dataSource.query(`CREATE TABLE handler_writes (event_id text NOT NULL)`);
  });
  afterAll(async () => {
    await server?.close();
  });

  const handlerWrites = (eventId: string) =>
    server.runtime.dataSource.query(`SELECT event_id FROM handler_writes WHERE event_id = $1`, [eventId]);

  test(
    'leaves nothing of the handler behind; a worker started after the lock is stale applies the event once',
    async () => {
      const event = stripeEvent('payment_intent.succeeded');
      expect((await sendStripe(server, event)).status).toBe(200);

      const doomed = spawnTs('test/support/crashing-worker.ts', ['worker'], {
        DATABASE_URL: server.databaseUrl,
        TESSERA_MASTER_KEY: 'test-master-key',
        JWT_SECRET: 'test-jwt-secret',
        STRIPE_SECRET_KEY: STRIPE.secretKey,
        STRIPE_WEBHOOK_SECRET: SECRET,
        STRIPE_API_BASE: STRIPE.apiBase,
        WORKER_POLL_INTERVAL_MS: '50',
      });
      expect(await doomed.exited).toBeNull(); // killed by its signal, in the handler
      expect(await storedEvents(server, event.id)).toEqual([
        expect.objectContaining({ applied_at: null, outcome: null }),
      ]);
      expect(await handlerWrites(event.id)).toEqual([]);

      // The dead worker's lock on the job is stale after STALL_AFTER_MS: a worker starting then frees and runs it.
      await waitUntil(
        async () =>
          (
            await server.runtime.dataSource.query(
              `SELECT count(*)::int AS n FROM graphile_worker.jobs
                WHERE locked_at IS NOT NULL AND locked_at > now() - make_interval(secs => $1)`,
              [STALL_AFTER_MS / 1000],
            )
          )[0].n === 0,
        "the killed worker's lock going stale",
      );
      jest
        .spyOn(stripeHandlers(server), 'payment_intent.succeeded')
        .mockImplementation(async ({ tx, event: applied }) => {
          await tx.em.query(`INSERT INTO handler_writes (event_id) VALUES ($1)`, [applied.id]);
        });
      const replacement = await startWorker(server.runtime.core, server.databaseUrl, () => undefined);
      try {
        expect(await appliedEvent(server, event.id)).toMatchObject({ outcome: 'applied', attempts: 1 });
        await jobsAtRest(server);
      } finally {
        await stopWorker(replacement);
      }
      expect(await handlerWrites(event.id)).toEqual([{ event_id: event.id }]);
    },
    spawnBudget(1),
  );
});

describe('a server without Stripe configured (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET unset)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  test('has no Stripe webhooks route: POST /providers/stripe/webhooks is a 404 and stores nothing', async () => {
    const event = stripeEvent('payment_intent.succeeded');
    const response = await sendStripe(server, event);
    expect(response.status).toBe(404);
    expect(server.runtime.core.providers.inboundWebhooks()).toEqual([]);
    expect(await eventCount(server)).toBe(0);
  });
});
