import { createTesseraPubSub } from '../src/domain/events/pubsub';
import { RequestContext } from '../src/domain/shared/context';
import { DeliveryPump } from '../src/domain/webhooks/delivery-pump';
import { TestServer, startTestServer } from './support/harness';
import { Receiver } from './support/receiver';

/**
 * The delivery pump's claims (src/domain/webhooks/delivery-pump.ts, WebhookService.claimDue): a
 * delivery is a row due at a time, not a graphile-worker job; concurrent claims never share a
 * delivery; a claim is taken over only once it is stale; an attempt's outcome makes the row due
 * again (a retry) or leaves nothing due, and releases the claim.
 */
describe('webhook delivery pump claims', () => {
  let server: TestServer;
  const receiver = new Receiver();
  let system: RequestContext;
  const STALE_MS = 60_000;

  beforeAll(async () => {
    server = await startTestServer({ webhookRetryScheduleSeconds: [0, 0, 3600], webhookTimeoutMs: 1000 });
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
      expect((await server.request('POST', '/api/v1/business/sandbox/wallets/fund', { headers, body: { currency: 'USD', amount: '0.01' } })).status).toBe(201);
    }
    return merchant;
  };
  const rowsOf = (businessId: string): Promise<Array<{ id: string; status: string; due: boolean; claimed: boolean; next_retry_at: Date | null; due_at: Date | null }>> =>
    server.runtime.dataSource.query(
      `SELECT id, status, due_at, next_retry_at, due_at <= now() AS due, claimed_at IS NOT NULL AS claimed
         FROM webhook_deliveries WHERE business_id = $1 ORDER BY created_at`, [businessId]);
  const claimOnly = async (businessId: string, limit: number, staleMs = STALE_MS) =>
    (await server.runtime.core.webhooks.claimDue(system, limit, staleMs)).filter((due) => due.delivery.businessId === businessId);

  test('an event writes its deliveries due now and unclaimed, with no graphile-worker job', async () => {
    const merchant = await merchantWithDeliveries(2);
    const rows = await rowsOf(merchant.businessId);
    expect(rows.map(({ status, due, claimed }) => ({ status, due, claimed }))).toEqual(Array(2).fill({ status: 'pending', due: true, claimed: false }));
    const [{ jobs }] = await server.runtime.dataSource.query(`SELECT count(*)::int AS jobs FROM graphile_worker.jobs WHERE task_identifier = 'deliver_webhook'`);
    expect(jobs).toBe(0);
  });

  test('concurrent claims never share a delivery; a fresh claim is not taken over, a stale one is', async () => {
    const merchant = await merchantWithDeliveries(6);
    const claims = await Promise.all([1, 2, 3].map(() => server.runtime.core.webhooks.claimDue(system, 4, STALE_MS)));
    const ids = claims.flat().filter((due) => due.delivery.businessId === merchant.businessId).map((due) => due.delivery.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual((await rowsOf(merchant.businessId)).map((row) => row.id).sort());
    expect(await claimOnly(merchant.businessId, 10)).toEqual([]);
    // A claim older than the claimer's stall time belongs to a dead worker.
    await server.runtime.dataSource.query(`UPDATE webhook_deliveries SET claimed_at = now() - interval '2 minutes' WHERE id = $1`, [ids[0]]);
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

  test('a pump in another process (its own pub/sub) is woken by the NOTIFY after the commit, not by its poll', async () => {
    const { pubSub: elsewhere } = createTesseraPubSub();
    const pump = new DeliveryPump(server.runtime.core.webhooks, () => system, elsewhere, {
      concurrency: 2, pollIntervalMs: 3_600_000, stalledAfterMs: STALE_MS, databaseUrl: server.databaseUrl,
    }, () => undefined);
    pump.start();
    try {
      // Listening (its first claim follows at once, before the delivery below exists).
      const listening = async () => (await server.runtime.dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'LISTEN tessera_webhooks_due' AND datname = current_database()`))[0].n;
      for (const until = Date.now() + 5_000; (await listening()) === 0 && Date.now() < until;) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await listening()).toBe(1);
      const deadline = Date.now() + 5_000;
      const before = receiver.at('/pump-notify').length;
      const merchant = await merchantWithDeliveries(1, '/pump-notify');
      while (receiver.at('/pump-notify').length === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(receiver.at('/pump-notify')).toHaveLength(before + 1);
      expect((await rowsOf(merchant.businessId)).map((row) => row.status)).toEqual(['succeeded']);
    } finally {
      await pump.stop();
    }
  });
});
