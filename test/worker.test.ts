import { startWorker, stopWorker } from '../src/jobs/worker';
import { TestServer, startTestServer, waitFor } from './support/harness';

describe('background worker (graphile-worker in the same database)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  test('a job added in SQL is picked up and purges expired Idempotency-Key records, keeping live ones', async () => {
    const { dataSource } = server.runtime;
    await dataSource.query(
      `INSERT INTO idempotency_keys (scope, key, method, path, request_hash, state, leased_until, expires_at)
       VALUES ('test', 'expired', 'POST', '/x', 'h', 'completed', now(), now() - interval '1 minute'),
              ('test', 'live', 'POST', '/x', 'h', 'completed', now(), now() + interval '1 hour')`,
    );
    const worker = await startWorker(server.runtime.core, server.databaseUrl, () => undefined);
    try {
      await dataSource.query(`SELECT graphile_worker.add_job('purge_expired_idempotency_keys', '{}'::json)`);
      const keys = await waitFor(
        async () =>
          (await dataSource.query(`SELECT key FROM idempotency_keys WHERE scope = 'test' ORDER BY key`)).map(
            (row: { key: string }) => row.key,
          ),
        (found: string[]) => !found.includes('expired'),
        undefined,
        100,
      );
      expect(keys).toEqual(['live']);
    } finally {
      await stopWorker(worker);
    }
  });
});
