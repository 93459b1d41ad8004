import { Pool } from 'pg';
import { Logger, makeWorkerUtils, runMigrations } from 'graphile-worker';
import { JobRunner } from '../src/jobs/job-runner';
import { createTestDatabase, dropTestDatabase, waitFor } from './support/harness';
import { TcpProxy, startTcpProxy } from './support/tcp-proxy';

/**
 * graphile-worker gives up a job slot for good when the database goes away while the slot's job
 * runs (it cannot record the outcome). The reliability suite's PostgreSQL restart under load found
 * a worker process left with no slot: up, and running no job again. JobRunner replaces the runner.
 */
describe('the job runner after the database went away under a running job', () => {
  let databaseUrl: string;
  let proxy: TcpProxy;
  let pool: Pool;
  let runner: JobRunner | null = null;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    await runMigrations({ connectionString: databaseUrl });
    proxy = await startTcpProxy(databaseUrl);
    pool = new Pool({ connectionString: proxy.urlFor(databaseUrl), max: 4 });
    pool.on('error', () => undefined); // the cut drops idle connections
  });
  afterAll(async () => {
    await proxy.restore().catch(() => undefined);
    await runner?.stop();
    await pool.end();
    await proxy.close();
    await dropTestDatabase(databaseUrl);
  });

  test('a slot that could not record its job is replaced: jobs added after the database came back run', async () => {
    let started = false;
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const ran: number[] = [];
    const lines: string[] = [];
    runner = await JobRunner.start(
      {
        pgPool: pool,
        concurrency: 1,
        noHandleSignals: true,
        pollInterval: 100,
        taskList: {
          hold: async () => {
            started = true;
            await finished;
          },
          mark: async (payload) => {
            ran.push((payload as { n: number }).n);
          },
        },
        logger: new Logger(() => () => undefined),
      },
      (line) => lines.push(line),
      100,
    );
    const utils = await makeWorkerUtils({ connectionString: databaseUrl }); // straight to PostgreSQL, not through the proxy
    try {
      await utils.addJob('hold', {});
      await waitFor(
        async () => started,
        (value) => value,
      );
      await proxy.cut();
      finish(); // the job ends while the database is unreachable: its outcome cannot be recorded
      await waitFor(
        async () => lines.join('\n'),
        (log) => log.includes('a job slot stopped'),
      );
      await proxy.restore();
      await utils.addJob('mark', { n: 1 });
      await waitFor(
        async () => ran,
        (seen) => seen.includes(1),
      );
      expect(runner.replacements).toBeGreaterThanOrEqual(1);
      expect(lines).toContain('[worker] job runner restarted');
    } finally {
      await utils.release();
    }
  });
});
