import { startWorker, stopWorker } from '../src/jobs/worker';
import { TestServer, startTestServer, waitFor } from './support/harness';
import { Receiver } from './support/receiver';

/** Issue 3: any number of workers against one database, no delivery made twice concurrently. */
describe('several workers share the delivery queue', () => {
  let server: TestServer;
  const receiver = new Receiver();

  beforeAll(async () => {
    server = await startTestServer({ workerPollIntervalMs: 50, workerConcurrency: 4 });
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await server.close();
  });

  test('three workers deliver 40 events exactly once each', async () => {
    const merchant = await server.signUp();
    const headers = { 'x-api-key': merchant.apiKey };
    await server.request('PUT', '/api/v1/business/config', { headers, body: { webhookUrl: receiver.url('/many') } });
    for (let i = 0; i < 40; i += 1) {
      expect(
        (
          await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
            headers,
            body: { currency: 'USD', amount: '0.01' },
          })
        ).status,
      ).toBe(201);
    }
    const workers = await Promise.all(
      [1, 2, 3].map(() => startWorker(server.runtime.core, server.databaseUrl, () => undefined)),
    );
    const statuses = () =>
      server.runtime.dataSource.query(
        `SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE business_id = $1 GROUP BY status`,
        [merchant.businessId],
      );
    let settled: Array<{ status: string; n: number }>;
    try {
      settled = await waitFor(
        statuses,
        (rows) => rows.length === 1 && rows[0].status === 'succeeded' && rows[0].n === 40,
      );
    } finally {
      // A stopped worker has finished every attempt it began: a copy sent twice is at the receiver now.
      await Promise.all(workers.map(stopWorker));
    }
    expect(settled).toEqual([{ status: 'succeeded', n: 40 }]);
    const ids = receiver.at('/many').map((arrival) => String(arrival.headers['webhook-id']));
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
  });
});
