import { loadConfig } from '../src/config';
import { createTesseraPubSub } from '../src/domain/events/pubsub';
import { ConfigError } from '../src/startup-error';
import { RequestContext } from '../src/domain/shared/context';
import { DeliveryPump } from '../src/domain/webhooks/delivery-pump';
import { WebhookDelivery } from '../src/domain/webhooks/webhook-delivery.entity';
import { AttemptOutcome } from '../src/domain/webhooks/webhook-sender';
import { SentAttempt } from '../src/domain/webhooks/delivery-attempts';
import { TestServer, startTestServer, waitFor, waitUntil } from './support/harness';
import { Receiver } from './support/receiver';

/**
 * The delivery pump's claims (src/domain/webhooks/delivery-pump.ts, WebhookService.claimDue): a
 * delivery is a row due at a time, not a graphile-worker job; concurrent claims never share a
 * delivery; a claim is taken over only once it is stale; an attempt's outcome makes the row due
 * again (a retry) or leaves nothing due, and releases the claim.
 */
/** An attempt the endpoint answered 200. */
const ANSWERED_200: AttemptOutcome = {
  ok: true,
  requestHeaders: null,
  responseStatus: 200,
  responseBody: 'ok',
  responseTimeMs: 1,
  errorMessage: null,
};

describe('webhook delivery pump claims', () => {
  let server: TestServer;
  const receiver = new Receiver();
  let system: RequestContext;
  const STALE_MS = 60_000;

  beforeAll(async () => {
    // The receiver answers from this same process: a generous time limit, so a busy machine's late answer is still a success.
    server = await startTestServer({ webhookRetryScheduleSeconds: [0, 0, 3600], webhookTimeoutMs: 10_000 });
    await receiver.start();
    system = RequestContext.system(server.runtime.dataSource, 'test');
  });
  afterAll(async () => {
    await receiver.close();
    await server.close();
  });

  const merchantWithDeliveries = async (count: number, path = '/pump') => {
    const merchant = await server.signUp();
    const headers = { 'x-api-key': merchant.apiKey };
    await server.request('PUT', '/api/v1/business/config', { headers, body: { webhookUrl: receiver.url(path) } });
    for (let i = 0; i < count; i += 1) {
      expect(
        (
          await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
            headers,
            body: { currency: 'USD', amount: '0.01' },
          })
        ).status,
      ).toBe(201);
    }
    return merchant;
  };
  const rowsOf = (
    businessId: string,
  ): Promise<
    Array<{
      id: string;
      status: string;
      due: boolean;
      claimed: boolean;
      next_retry_at: Date | null;
      due_at: Date | null;
    }>
  > =>
    server.runtime.dataSource.query(
      `SELECT id, status, due_at, next_retry_at, due_at <= now() AS due, claimed_at IS NOT NULL AS claimed
         FROM webhook_deliveries WHERE business_id = $1 ORDER BY created_at`,
      [businessId],
    );
  const claimOnly = async (businessId: string, limit: number, staleMs = STALE_MS) =>
    (await server.runtime.core.webhooks.claimDue(system, limit, staleMs)).filter(
      (due) => due.delivery.businessId === businessId,
    );

  test('an event writes its deliveries due now and unclaimed, with no graphile-worker job', async () => {
    const merchant = await merchantWithDeliveries(2);
    const rows = await rowsOf(merchant.businessId);
    expect(rows.map(({ status, due, claimed }) => ({ status, due, claimed }))).toEqual(
      Array(2).fill({ status: 'pending', due: true, claimed: false }),
    );
    const [{ jobs }] = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS jobs FROM graphile_worker.jobs WHERE task_identifier = 'deliver_webhook'`,
    );
    expect(jobs).toBe(0);
  });

  test('concurrent claims never share a delivery; a fresh claim is not taken over, a stale one is', async () => {
    const merchant = await merchantWithDeliveries(6);
    const claims = await Promise.all([1, 2, 3].map(() => server.runtime.core.webhooks.claimDue(system, 4, STALE_MS)));
    const ids = claims
      .flat()
      .filter((due) => due.delivery.businessId === merchant.businessId)
      .map((due) => due.delivery.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual((await rowsOf(merchant.businessId)).map((row) => row.id).sort());
    expect(await claimOnly(merchant.businessId, 10)).toEqual([]);
    // A claim older than the claimer's stall time belongs to a dead worker.
    await server.runtime.dataSource.query(
      `UPDATE webhook_deliveries SET claimed_at = now() - interval '2 minutes' WHERE id = $1`,
      [ids[0]],
    );
    expect((await claimOnly(merchant.businessId, 10)).map((due) => due.delivery.id)).toEqual([ids[0]]);
  });

  test('a failed attempt makes the row due at the retry time and releases the claim; a success leaves nothing due', async () => {
    const merchant = await merchantWithDeliveries(1, '/pump-retry');
    receiver.program('/pump-retry', [{ status: 500 }]);
    const [first] = await claimOnly(merchant.businessId, 1);
    await server.runtime.core.webhooks.attemptDue(system, first);
    let [row] = await rowsOf(merchant.businessId);
    expect(row).toMatchObject({ status: 'failed', claimed: false, due: true });
    expect(new Date(row.due_at!).getTime()).toBe(new Date(row.next_retry_at!).getTime());
    // The first retry is due at once (schedule [0, 0, 3600]): claimed again and, answered 200 now, done.
    const [again] = await claimOnly(merchant.businessId, 1);
    expect(again.delivery.id).toBe(first.delivery.id);
    await server.runtime.core.webhooks.attemptDue(system, again);
    [row] = await rowsOf(merchant.businessId);
    expect(row).toMatchObject({ status: 'succeeded', claimed: false, due_at: null });
    expect(await claimOnly(merchant.businessId, 1)).toEqual([]);
  });

  test('several outcomes are written in one statement, each on its own row exactly, and the claims released', async () => {
    const merchant = await merchantWithDeliveries(3, '/pump-batch');
    const claimed = await claimOnly(merchant.businessId, 100);
    expect(claimed).toHaveLength(3);
    const at = new Date('2026-11-25T01:02:03.456Z');
    const awkward = 'quote " backslash \\ comma , braces {} NULL é ☃ \n newline';
    const outcomes: AttemptOutcome[] = [
      {
        ok: true,
        requestHeaders: { 'x-service-signature': 'abc', 'x-odd': awkward },
        responseStatus: 200,
        responseBody: awkward,
        responseTimeMs: 12,
        errorMessage: null,
      },
      {
        ok: false,
        requestHeaders: null,
        responseStatus: null,
        responseBody: null,
        responseTimeMs: 0,
        errorMessage: 'Not delivered: because',
      },
      {
        ok: false,
        requestHeaders: { a: '1' },
        responseStatus: 500,
        responseBody: '',
        responseTimeMs: 3,
        errorMessage: 'The endpoint answered HTTP 500',
      },
    ];
    const sent = claimed.map((due, index) => ({ delivery: due.delivery, attemptedAt: at, outcome: outcomes[index] }));

    const spy = jest.spyOn(server.runtime.dataSource.logger, 'logQuery');
    let recorded: Array<WebhookDelivery | null>;
    try {
      recorded = await server.runtime.core.webhooks.recordAllSent(system, sent);
      expect(spy.mock.calls.filter(([sql]) => /^\s*UPDATE/.test(sql))).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
    const stored: any[] = await server.runtime.dataSource.query(
      `SELECT id, status, attempt_count, last_attempt_at, request_headers, response_status, response_body, response_time_ms, error_message,
              due_at IS NOT NULL AS due, claimed_at IS NOT NULL AS claimed, updated_at
         FROM webhook_deliveries WHERE business_id = $1`,
      [merchant.businessId],
    );
    const byId = new Map(stored.map((row) => [row.id, row]));
    claimed.forEach((due, index) => {
      const row = byId.get(due.delivery.id);
      const outcome = outcomes[index];
      expect(row).toMatchObject({
        attempt_count: 1,
        request_headers: outcome.requestHeaders,
        response_status: outcome.responseStatus,
        response_body: outcome.responseBody,
        response_time_ms: outcome.responseTimeMs,
        error_message: outcome.errorMessage,
        last_attempt_at: at,
        claimed: false,
      });
      expect(recorded[index]).toMatchObject({
        id: due.delivery.id,
        status: row.status,
        attemptCount: 1,
        updatedAt: row.updated_at,
        claimedAt: null,
      });
    });
    // The first succeeded; the other two failed with a retry due (the schedule has three attempts).
    expect(claimed.map((due) => byId.get(due.delivery.id).status)).toEqual(['succeeded', 'failed', 'failed']);
    expect(claimed.map((due) => byId.get(due.delivery.id).due)).toEqual([false, true, true]);
  });

  test('a delivery no longer there is answered null and the others are recorded; a statement that fails records none', async () => {
    const merchant = await merchantWithDeliveries(2, '/pump-batch-missing');
    const [first, second] = await claimOnly(merchant.businessId, 100);
    const outcome = ANSWERED_200;
    const gone = Object.assign(new WebhookDelivery(), first.delivery, { id: '00000000-0000-4000-8000-000000000000' });

    // PostgreSQL's text cannot hold a NUL: the one statement fails, and neither row changes.
    const unstorable = { ...outcome, responseBody: 'a\u0000b' };
    await expect(
      server.runtime.core.webhooks.recordAllSent(system, [
        { delivery: first.delivery, attemptedAt: new Date(), outcome },
        { delivery: second.delivery, attemptedAt: new Date(), outcome: unstorable },
      ]),
    ).rejects.toThrow();
    expect((await rowsOf(merchant.businessId)).map((row) => ({ status: row.status, claimed: row.claimed }))).toEqual(
      Array(2).fill({ status: 'pending', claimed: true }),
    );
    expect(first.delivery.attemptCount).toBe(0);

    const recorded = await server.runtime.core.webhooks.recordAllSent(system, [
      { delivery: gone, attemptedAt: new Date(), outcome },
      { delivery: first.delivery, attemptedAt: new Date(), outcome },
    ]);
    expect(recorded.map((delivery) => delivery?.id ?? null)).toEqual([null, first.delivery.id]);
    const rows = await rowsOf(merchant.businessId);
    expect(rows.find((row) => row.id === first.delivery.id)).toMatchObject({ status: 'succeeded', claimed: false });
    expect(rows.find((row) => row.id === second.delivery.id)).toMatchObject({ status: 'pending', claimed: true });
    await expect(
      server.runtime.core.webhooks.recordSent(system, { delivery: gone, attemptedAt: new Date(), outcome }),
    ).rejects.toThrow(/disappeared/);
  });

  test('an outcome arriving after another attempt finished the delivery (a stale claim taken over) leaves it finished', async () => {
    const merchant = await merchantWithDeliveries(2, '/pump-late');
    const [first, second] = await claimOnly(merchant.businessId, 100);
    const success = ANSWERED_200;
    const failure: AttemptOutcome = { ...success, ok: false, responseStatus: 500, errorMessage: 'HTTP 500' };
    await server.runtime.core.webhooks.recordAllSent(system, [
      { delivery: first.delivery, attemptedAt: new Date(), outcome: success },
    ]);

    const late = await server.runtime.core.webhooks.recordAllSent(system, [
      { delivery: first.delivery, attemptedAt: new Date(), outcome: failure },
      { delivery: second.delivery, attemptedAt: new Date(), outcome: failure },
    ]);
    expect(late.map((delivery) => delivery?.status ?? null)).toEqual([null, 'failed']);
    const rows = await rowsOf(merchant.businessId);
    expect(rows.find((row) => row.id === first.delivery.id)).toMatchObject({ status: 'succeeded', due_at: null });
    expect(rows.find((row) => row.id === second.delivery.id)).toMatchObject({ status: 'failed', claimed: false });
  });

  test('a pump writes the outcomes that arrive while it is writing in one statement, and each on its own when that statement fails', async () => {
    const deliveries = Array.from({ length: 12 }, (_, index) =>
      Object.assign(new WebhookDelivery(), { id: `delivery-${index}` }),
    );
    let claimedOnce = false;
    const writes: string[][] = [];
    let failBatches = false;
    const fake = {
      claimDue: async () => {
        if (claimedOnce) return [];
        claimedOnce = true;
        return deliveries.map((delivery) => ({ delivery, sealedApiSecret: null }));
      },
      send: async (_ctx: RequestContext, due: { delivery: WebhookDelivery }) => {
        await new Promise((resolve) => setImmediate(resolve));
        return { delivery: due.delivery, attemptedAt: new Date(), outcome: { ok: true } as AttemptOutcome };
      },
      writeAllSent: async (_ctx: RequestContext, sent: readonly SentAttempt[]) => {
        writes.push(sent.map((one) => one.delivery.id));
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (failBatches && sent.length > 1) throw new Error('statement failed');
        return sent.map((one) => (one.delivery.id === 'delivery-11' ? null : one.delivery));
      },
      // Subscribers cannot be told (the pub/sub is down): the outcomes are written all the same, once.
      announceRecorded: async () => {
        throw new Error('pub/sub down');
      },
    };
    const logged: string[] = [];
    const run = async () => {
      claimedOnce = false;
      writes.length = 0;
      logged.length = 0;
      const pump = new DeliveryPump(
        fake,
        () => system,
        createTesseraPubSub().pubSub,
        {
          concurrency: 12,
          pollIntervalMs: 3_600_000,
          stalledAfterMs: STALE_MS,
          databaseUrl: server.databaseUrl,
        },
        (line) => logged.push(line),
      );
      pump.start();
      await waitFor(
        async () => writes.flat().length,
        (written) => written >= 12,
        undefined,
        10,
      );
      await pump.stop();
    };

    await run();
    // Every outcome written once; while the first write ran the others arrived, and went together.
    expect(writes.flat().sort()).toEqual(deliveries.map((delivery) => delivery.id).sort());
    expect(writes.length).toBeLessThan(12);
    expect(Math.max(...writes.map((write) => write.length))).toBeGreaterThan(1);
    expect(logged.filter((line) => !line.includes('could not be announced'))).toEqual([
      '[webhooks] delivery delivery-11: the attempt could not be recorded: Webhook delivery delivery-11 disappeared during its attempt',
    ]);
    expect(logged.filter((line) => line.includes('could not be announced')).length).toBe(writes.length);

    failBatches = true;
    await run();
    // A batch that failed wrote nothing, so each of its outcomes was written again on its own.
    const batches = writes.filter((write) => write.length > 1);
    expect(batches.length).toBeGreaterThan(0);
    const singles = writes.filter((write) => write.length === 1).flat();
    expect(singles.sort()).toEqual(deliveries.map((delivery) => delivery.id).sort());
  });

  test('a pump in another process (its own pub/sub) is woken by the NOTIFY after the commit, not by its poll', async () => {
    const { pubSub: elsewhere } = createTesseraPubSub();
    const pump = new DeliveryPump(
      server.runtime.core.webhooks,
      () => system,
      elsewhere,
      {
        concurrency: 2,
        pollIntervalMs: 3_600_000,
        stalledAfterMs: STALE_MS,
        databaseUrl: server.databaseUrl,
      },
      () => undefined,
    );
    pump.start();
    try {
      // Listening (its first claim follows at once, before the delivery below exists).
      const listening = async () =>
        (
          await server.runtime.dataSource.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'LISTEN tessera_webhooks_due' AND datname = current_database()`,
          )
        )[0].n;
      await waitUntil(async () => (await listening()) > 0, 'the pump listening');
      expect(await listening()).toBe(1);
      const before = receiver.at('/pump-notify').length;
      const merchant = await merchantWithDeliveries(1, '/pump-notify');
      // The receiver gets the POST before the pump writes its outcome: wait for the row, which is what is asserted.
      const rows = await waitFor(
        () => rowsOf(merchant.businessId),
        (found) => found.length > 0 && found.every((row) => row.status !== 'pending'),
      );
      expect(rows.map((row) => row.status)).toEqual(['succeeded']);
      expect(receiver.at('/pump-notify')).toHaveLength(before + 1);
    } finally {
      await pump.stop();
    }
  });
});

describe('JOB_STALL_AFTER_MS against WEBHOOK_TIMEOUT_MS', () => {
  test("a claim must outlast two attempts' time limits (a wait for a slot, then its own), or the start is refused", () => {
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '30000', JOB_STALL_AFTER_MS: '60000' })).toThrow(ConfigError);
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '30000', JOB_STALL_AFTER_MS: '60000' })).toThrow(
      /JOB_STALL_AFTER_MS \(60000\) must be more than twice WEBHOOK_TIMEOUT_MS \(30000\)/,
    );
    expect(loadConfig({ WEBHOOK_TIMEOUT_MS: '30000', JOB_STALL_AFTER_MS: '60001' }).jobStallAfterMs).toBe(60_001);
    // The defaults: 30 s, and twice that and 30 s more for the claims, whatever the time limit.
    expect(loadConfig({})).toMatchObject({ webhookTimeoutMs: 30_000, jobStallAfterMs: 90_000 });
    expect(loadConfig({ WEBHOOK_TIMEOUT_MS: '100000' }).jobStallAfterMs).toBe(230_000);
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '100000', JOB_STALL_AFTER_MS: '150000' })).toThrow(ConfigError);
  });
});
