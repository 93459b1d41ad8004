import http from 'node:http';
import { AddressInfo } from 'node:net';
import { startWorker, stopWorker } from '../src/jobs/worker';
import { TestServer, sleep, startTestServer, waitFor, waitUntil } from './support/harness';
import { spawnTs } from './support/process';

/**
 * Issue 3: kill a worker process (SIGKILL) in the middle of deliveries; after a worker starts
 * again every event is delivered, none lost.
 */
describe('webhook delivery survives a worker killed mid-delivery', () => {
  const STALL_AFTER_MS = 1500;
  let server: TestServer;
  const received: string[] = [];
  let receiver: http.Server;
  let receiverUrl: string;

  beforeAll(async () => {
    // The replacement worker runs in this process, beside the receiver: a generous time limit, so a
    // busy machine's late answer is still a success (a failure would wait for its retry).
    server = await startTestServer({
      jobStallAfterMs: STALL_AFTER_MS,
      workerPollIntervalMs: 50,
      webhookTimeoutMs: 10_000,
    });
    receiver = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received.push(String(request.headers['webhook-id']));
        setTimeout(() => {
          if (!response.destroyed) response.end('ok');
        }, 400);
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    receiver.close();
    await server.close();
  });

  test('every delivery succeeds after the killed worker is replaced', async () => {
    const merchant = await server.signUp();
    const headers = { 'x-api-key': merchant.apiKey };
    expect(
      (await server.request('PUT', '/api/v1/business/config', { headers, body: { webhookUrl: receiverUrl } })).status,
    ).toBe(200);
    for (let i = 0; i < 6; i += 1) {
      const funded = await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
        headers,
        body: { currency: 'USD', amount: '1.00' },
      });
      expect(funded.status).toBe(201);
    }

    const doomed = spawnTs('src/cli/index.ts', ['worker'], {
      DATABASE_URL: server.databaseUrl,
      TESSERA_MASTER_KEY: 'test-master-key',
      JWT_SECRET: 'test-jwt-secret',
      WORKER_CONCURRENCY: '2',
      WORKER_POLL_INTERVAL_MS: '50',
      WEBHOOK_TIMEOUT_MS: '1000',
    });
    // A worker through ts-node: seconds of CPU to start, a minute or more on a busy machine.
    await waitUntil(() => received.length > 0, 'a delivery from the doomed worker', 150_000);
    doomed.child.kill('SIGKILL');
    await doomed.exited;

    const statuses = () =>
      server.runtime.dataSource.query<Array<{ id: string; status: string }>>(
        `SELECT id, status FROM webhook_deliveries WHERE business_id = $1 ORDER BY created_at`,
        [merchant.businessId],
      );
    const beforeRestart = await statuses();
    expect(beforeRestart).toHaveLength(6);
    expect(beforeRestart.filter((row) => row.status === 'succeeded').length).toBeLessThan(6);

    await sleep(STALL_AFTER_MS + 200); // the killed worker's claims are stale from now on
    const replacement = await startWorker(server.runtime.core, server.databaseUrl, () => undefined);
    try {
      const rows = await waitFor(statuses, (found) => found.every((row) => row.status === 'succeeded'), undefined, 100);
      expect(rows.map((row) => row.status)).toEqual(Array(6).fill('succeeded'));
      for (const row of rows) expect(received).toContain(row.id);
    } finally {
      await stopWorker(replacement);
    }
  }, 240_000);
});
