import { Topic } from '../src/domain/events/pubsub';
import { Mode } from '../src/domain/identity/identity.entities';
import { RequestContext, inTransaction } from '../src/domain/shared/context';
import { TestMerchant, TestServer, startTestServer } from './support/harness';

/** The transactional outbox (design section 6): the event row commits with the change, or not at all. */
describe('event outbox', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  const published: Array<{ type: string; businessId: string }> = [];

  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.signUp();
    const subscription = server.runtime.core.pubSub.subscribe(Topic.EVENT);
    void (async () => {
      for await (const event of subscription) published.push(event);
    })();
  });
  afterAll(async () => server.close());

  const eventsOf = (businessId: string) =>
    server.runtime.dataSource.query(`SELECT type, livemode, data FROM events WHERE business_id = $1 ORDER BY created_at`, [businessId]);

  test('a sandbox funding writes one wallet.funded event for its business and mode, and publishes it after commit', async () => {
    const response = await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      headers: { 'x-api-key': merchant.apiKey }, body: { currency: 'USD', amount: '5.00' },
    });
    expect(response.status).toBe(201);
    expect(await eventsOf(merchant.businessId)).toEqual([{
      type: 'wallet.funded',
      livemode: false,
      data: expect.objectContaining({ currency: 'usd', amount: '5.00', balance: '5.00', transactionId: response.body.data.transactionId }),
    }]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(published.filter((event) => event.businessId === merchant.businessId).map((event) => event.type)).toEqual(['wallet.funded']);
  });

  test('an event recorded in a transaction that rolls back is neither stored nor published', async () => {
    const other = await server.signUp();
    const ctx = new RequestContext(server.runtime.dataSource, { kind: 'system', name: 'test' }, other.businessId, Mode.TEST);
    await expect(inTransaction(ctx, async (tx) => {
      await server.runtime.core.events.record(tx, 'test.rolled_back', { n: 1 });
      throw new Error('fail after recording');
    })).rejects.toThrow('fail after recording');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await eventsOf(other.businessId)).toEqual([]);
    expect(published.filter((event) => event.businessId === other.businessId)).toEqual([]);
  });

  test('recording an event outside a transaction is refused', async () => {
    const ctx = new RequestContext(server.runtime.dataSource, { kind: 'system', name: 'test' }, merchant.businessId, Mode.TEST);
    await expect(server.runtime.core.events.record(ctx, 'test.outside', {})).rejects.toThrow(/inside a transaction/);
  });
});
