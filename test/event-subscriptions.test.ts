import { Worker, startWorker, stopWorker } from '../src/jobs/worker';
import { TestMerchant, TestServer, collect, startTestServer } from './support/harness';
import { Receiver } from './support/receiver';

/** Issue 3: dashboard subscriptions to new events and delivery status changes, scoped to business and mode. */
describe('event and delivery subscriptions', () => {
  let server: TestServer;
  let worker: Worker;
  const receiver = new Receiver();
  let a: TestMerchant;
  let b: TestMerchant;

  beforeAll(async () => {
    server = await startTestServer({ webhookRetryScheduleSeconds: [0], workerPollIntervalMs: 50 });
    await receiver.start();
    worker = await startWorker(server.runtime.core, server.databaseUrl, () => undefined);
    [a, b] = [await server.signUp(), await server.signUp()];
  });
  afterAll(async () => {
    await stopWorker(worker);
    await receiver.close();
    await server.close();
  });

  const fund = (merchant: TestMerchant) => server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
    headers: { 'x-api-key': merchant.apiKey }, body: { currency: 'USD', amount: '2.50' },
  });

  test('eventCreated reaches the business that owns the event, and no other', async () => {
    const query = 'subscription { eventCreated { type mode data } }';
    const ofA = collect(server.subscribe({ authorization: `Bearer ${a.token}` }), query, 2, 1500);
    const ofB = collect(server.subscribe({ apiKey: b.apiKey }), query, 1, 1500);
    await Promise.all([ofA.ready, ofB.ready]);
    expect((await fund(a)).status).toBe(201);
    const received = await ofA.done;
    expect(received).toEqual([{ eventCreated: { type: 'wallet.funded', mode: 'TEST', data: expect.objectContaining({ amount: '2.50' }) } }]);
    expect(await ofB.done).toEqual([]);
  });

  test('webhookDeliveryUpdated shows a delivery created and then succeeded, to its own business only', async () => {
    await server.request('PUT', '/api/v1/business/config', { headers: { 'x-api-key': a.apiKey }, body: { webhookUrl: receiver.url('/a') } });
    const query = 'subscription { webhookDeliveryUpdated { eventType status attemptCount responseStatus } }';
    const ofA = collect(server.subscribe({ apiKey: a.apiKey }), query, 2, 5000);
    const ofB = collect(server.subscribe({ apiKey: b.apiKey }), query, 1, 1500);
    await Promise.all([ofA.ready, ofB.ready]);
    expect((await fund(a)).status).toBe(201);
    const updates = (await ofA.done).map((update) => update.webhookDeliveryUpdated);
    expect(updates.at(-1)).toEqual({ eventType: 'wallet.funded', status: 'succeeded', attemptCount: 1, responseStatus: 200 });
    expect(updates.length).toBe(2);
    expect(await ofB.done).toEqual([]);
  });
});
