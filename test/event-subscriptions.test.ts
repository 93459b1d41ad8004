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

  const fund = (merchant: TestMerchant, amount = '2.50') =>
    server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      headers: { 'x-api-key': merchant.apiKey },
      body: { currency: 'USD', amount },
    });

  test('eventCreated reaches the business that owns the event, and no other', async () => {
    const query = 'subscription { eventCreated { type mode data } }';
    const ofA = collect(server.subscribe({ authorization: `Bearer ${a.token}` }), query, 2);
    const ofB = collect(server.subscribe({ apiKey: b.apiKey }), query, 1);
    await Promise.all([ofA.ready, ofB.ready]);
    // In publication order: A, B, A. Each subscriber's first messages would show a leak.
    expect((await fund(a, '2.50')).status).toBe(201);
    expect((await fund(b, '0.75')).status).toBe(201);
    expect((await fund(a, '0.25')).status).toBe(201);
    const funded = (amount: string) => ({
      eventCreated: { type: 'wallet.funded', mode: 'TEST', data: expect.objectContaining({ amount }) },
    });
    expect(await ofA.done).toEqual([funded('2.50'), funded('0.25')]);
    expect(await ofB.done).toEqual([funded('0.75')]);
  });

  test('webhookDeliveryUpdated shows a delivery created and then succeeded, to its own business only', async () => {
    await server.request('PUT', '/api/v1/business/config', {
      headers: { 'x-api-key': a.apiKey },
      body: { webhookUrl: receiver.url('/a') },
    });
    await server.request('PUT', '/api/v1/business/config', {
      headers: { 'x-api-key': b.apiKey },
      body: { webhookUrl: receiver.url('/b') },
    });
    const query =
      'subscription { webhookDeliveryUpdated { webhookDelivery { id eventType status attemptCount responseStatus } previousStatus changedFields } }';
    const ofA = collect(server.subscribe({ apiKey: a.apiKey }), query, 2);
    const ofB = collect(server.subscribe({ apiKey: b.apiKey }), query, 1);
    await Promise.all([ofA.ready, ofB.ready]);
    expect((await fund(a)).status).toBe(201);
    const changes = (await ofA.done).map((update) => update.webhookDeliveryUpdated);
    // One update per change: the creation (no previous status; every field is new), then the attempt (what it changed).
    expect(changes.map(({ previousStatus }) => previousStatus)).toEqual([null, 'pending']);
    expect(changes[0].changedFields).toEqual([
      'id',
      'eventId',
      'eventType',
      'url',
      'requestBody',
      'requestHeaders',
      'status',
      'attemptCount',
      'lastAttemptAt',
      'nextRetryAt',
      'responseStatus',
      'responseBody',
      'responseTimeMs',
      'errorMessage',
      'partnerId',
      'createdAt',
      'updatedAt',
    ]);
    expect(changes[1].changedFields).toEqual(
      expect.arrayContaining([
        'status',
        'attemptCount',
        'lastAttemptAt',
        'requestHeaders',
        'responseStatus',
        'responseTimeMs',
      ]),
    );
    for (const unchanged of ['id', 'eventId', 'url', 'requestBody', 'createdAt'])
      expect(changes[1].changedFields).not.toContain(unchanged);
    const updates = changes.map((change) => change.webhookDelivery);
    // Each message's object is read when the message is sent (docs/graphql-api.md): the moves are
    // asserted above; the creation's object may already show the attempt if the pump was quicker.
    const states = updates.map(({ id: _id, ...rest }) => rest);
    const created = { eventType: 'wallet.funded', status: 'pending', attemptCount: 0, responseStatus: null };
    const succeeded = { eventType: 'wallet.funded', status: 'succeeded', attemptCount: 1, responseStatus: 200 };
    expect([created, succeeded]).toContainEqual(states[0]);
    expect(states[1]).toEqual(succeeded);
    expect(updates[0].id).toBe(updates[1].id);
    // Published after both of A's updates: B's first message is its own delivery, never A's.
    expect((await fund(b)).status).toBe(201);
    const [ofBFirst] = (await ofB.done).map((update) => update.webhookDeliveryUpdated.webhookDelivery);
    expect(ofBFirst.id).not.toBe(updates[0].id);
    const deliveriesOfB = await server.request('GET', '/api/v1/events', { headers: { 'x-api-key': b.apiKey } });
    expect(JSON.stringify(deliveriesOfB.body.data)).toContain(ofBFirst.id);
  });
});
