import { TestServer, startTestServer } from './support/harness';
import { spawnBudget, spawnTs } from './support/process';

/**
 * `tessera worker` stops gracefully on the first SIGTERM however soon it comes: a supervisor (or a
 * test) that sends it the moment the worker says it runs must not find Node's default handler,
 * which kills the process by the signal (exit code null) with jobs in hand.
 */
describe('tessera worker and SIGTERM', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const ROUNDS = 6;

  test(
    `a SIGTERM sent the instant the worker says it runs stops it with exit code 0 (${ROUNDS} rounds)`,
    async () => {
      const outcomes: Array<{ code: number | null; signal: string | null }> = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const worker = spawnTs('src/cli/index.ts', ['worker'], {
          DATABASE_URL: server.databaseUrl,
          TESSERA_MASTER_KEY: 'test-master-key',
          JWT_SECRET: 'test-jwt-secret',
        });
        // No polling: the signal leaves as soon as the line arrives, as close to the write as a parent can be.
        worker.child.stdout!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('Worker running')) worker.child.kill('SIGTERM');
        });
        outcomes.push(
          await new Promise((resolve) => worker.child.on('exit', (code, signal) => resolve({ code, signal }))),
        );
      }
      expect(outcomes).toEqual(Array.from({ length: ROUNDS }, () => ({ code: 0, signal: null })));
    },
    spawnBudget(6),
  );
});
