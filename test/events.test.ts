import { EventTopic } from '../src/domain/events/events.topics';
import { Mode } from '../src/domain/shared/modes';
import { RequestContext, inTransaction } from '../src/domain/shared/context';
import { TestMerchant, TestServer, startTestServer, waitUntil } from './support/harness';

/** The transactional outbox (design section 6): the event row commits with the change, or not at all. */
describe('event outbox', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  const published: Array<{ type: string; businessId: string }> = [];

  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.signUp();
    const subscription = server.runtime.core.pubSub.subscribe(EventTopic.EVENT);
    void (async () => {
      for await (const event of subscription) published.push(event);
    })();
  });
  afterAll(async () => server.close());

  const eventsOf = (businessId: string) =>
    server.runtime.dataSource.query(
      `SELECT type, livemode, data FROM events WHERE business_id = $1 ORDER BY created_at`,
      [businessId],
    );

  test('a sandbox funding writes one wallet.funded event for its business and mode, and publishes it after commit', async () => {
    const response = await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      headers: { 'x-api-key': merchant.apiKey },
      body: { currency: 'USD', amount: '5.00' },
    });
    expect(response.status).toBe(201);
    expect(await eventsOf(merchant.businessId)).toEqual([
      {
        type: 'wallet.funded',
        livemode: false,
        data: expect.objectContaining({
          currency: 'usd',
          amount: '5.00',
          balance: '5.00',
          transactionId: response.body.data.transactionId,
        }),
      },
    ]);
    const ofMerchant = () =>
      published.filter((event) => event.businessId === merchant.businessId).map((event) => event.type);
    await waitUntil(() => ofMerchant().length > 0, 'the publication');
    expect(ofMerchant()).toEqual(['wallet.funded']);
  });

  test('an event recorded in a transaction that rolls back is neither stored nor published', async () => {
    const other = await server.signUp();
    const ctx = new RequestContext(
      server.runtime.dataSource,
      { kind: 'system', name: 'test' },
      other.businessId,
      Mode.TEST,
    );
    await expect(
      inTransaction(ctx, async (tx) => {
        await server.runtime.core.events.record(tx, 'test.rolled_back', { n: 1 });
        throw new Error('fail after recording');
      }),
    ).rejects.toThrow('fail after recording');
    expect(await eventsOf(other.businessId)).toEqual([]);
    // Publications arrive in order: once a later committed event is heard, the rolled-back one would have been.
    await inTransaction(ctx, (tx) => server.runtime.core.events.record(tx, 'test.committed', { n: 2 }));
    const ofOther = () => published.filter((event) => event.businessId === other.businessId).map((event) => event.type);
    await waitUntil(() => ofOther().length > 0, "the committed event's publication");
    expect(ofOther()).toEqual(['test.committed']);
  });

  test('an event is written with its webhook delivery and the jobs its change schedules; the delivery body is the event as recorded, byte for byte', async () => {
    const other = await server.signUp();
    const { dataSource, core } = server.runtime;
    await dataSource.query(
      `UPDATE business_settings SET webhook_url = 'http://127.0.0.1:9/hook' WHERE business_id = $1 AND NOT livemode`,
      [other.businessId],
    );
    const ctx = RequestContext.system(dataSource, 'test', other.businessId, Mode.TEST);
    const data = { zebra: 'a key out of order', amount: '1.00', nested: { b: 1, a: [2, 'é "quoted" \\ back'] } };
    const jobKey = `noop:${other.businessId}`;
    const event = await inTransaction(ctx, (tx) =>
      core.events.record(tx, 'test.recorded', data, [
        { task: 'test_noop', payload: { n: 1 }, options: { runAt: new Date(Date.now() + 86_400_000), jobKey } },
      ]),
    );
    const [stored] = await dataSource.query(`SELECT created_at FROM events WHERE id = $1`, [event.id]);
    const timestamp = stored.created_at.toISOString();
    expect(event.createdAt.toISOString()).toBe(timestamp);
    const deliveries = await dataSource.query(
      `SELECT event_id, url, request_body, payload FROM webhook_deliveries WHERE business_id = $1`,
      [other.businessId],
    );
    expect(deliveries).toEqual([
      {
        event_id: event.id,
        url: 'http://127.0.0.1:9/hook',
        request_body: JSON.stringify({ event: 'test.recorded', timestamp, data }),
        payload: { event: 'test.recorded', timestamp, data },
      },
    ]);
    expect(await dataSource.query(`SELECT task_identifier FROM graphile_worker.jobs WHERE key = $1`, [jobKey])).toEqual(
      [{ task_identifier: 'test_noop' }],
    );
  });

  test('recording an event outside a transaction is refused', async () => {
    const ctx = new RequestContext(
      server.runtime.dataSource,
      { kind: 'system', name: 'test' },
      merchant.businessId,
      Mode.TEST,
    );
    await expect(server.runtime.core.events.record(ctx, 'test.outside', {})).rejects.toThrow(/inside a transaction/);
  });
});
