import { Client } from 'pg';
import { LedgerService } from '../src/domain/ledger/ledger.service';
import { releaseStalledJobs } from '../src/domain/shared/jobs';
import { TestServer, startTestServer, waitFor } from './support/harness';
import { apiKey, createRecipient, fundWallet } from './support/payouts';
import { Spawned, spawnBudget, spawnTs } from './support/process';
import { CLOCK, DAY, advanceCompleted, createSchedule, readClock, scheduleBody, setPin } from './support/schedules';

/**
 * A test clock's advance survives a worker killed in the middle of a slice (issue 26, finding 2):
 * the slice's job is taken over by another worker process, and every run that fell due fires
 * exactly once, counted once (runsFired == runsDue).
 */
describe('A test clock advance with its worker killed mid-slice', () => {
  let server: TestServer;
  const workers: Spawned[] = [];

  beforeAll(async () => {
    server = await startTestServer({ workerPollIntervalMs: 50 });
  });
  afterAll(async () => {
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    await server.close();
  });

  const count = async (sql: string, params: unknown[]) =>
    (await server.runtime.dataSource.query(sql, params))[0].n as number;
  const startWorker = async () => {
    const worker = spawnTs('src/cli/index.ts', ['worker'], {
      DATABASE_URL: server.databaseUrl,
      TESSERA_MASTER_KEY: 'test-master-key',
      JWT_SECRET: 'test-jwt-secret',
      WORKER_CONCURRENCY: '4',
      WORKER_POLL_INTERVAL_MS: '50',
    });
    workers.push(worker);
    await worker.waitFor(/Worker running/);
    return worker;
  };

  test(
    'kill -9 of the worker while a slice is firing: another worker finishes the advance, each run fired once and counted once',
    async () => {
      const who = await server.signUp();
      await setPin(server, who);
      await fundWallet(server, who, '10000.00');
      const payee = (await createRecipient(server, who)).id;
      const batch = {
        payloadKind: 'BATCH',
        payload: {
          items: [
            { recipientId: payee, amount: '1.00', currency: 'USD' },
            { recipientId: payee, amount: '2.00', currency: 'USD' },
          ],
        },
      };
      const weekly = (await createSchedule(server, who, scheduleBody(payee, { name: 'weekly', ...batch }))).body.data;
      const later = (await createSchedule(server, who, scheduleBody(payee, { name: 'later' }, 20 * DAY * 1000))).body
        .data;

      // Holding later's row stops the slice inside it, after the three weekly runs due before day 20.
      const holder = new Client({ connectionString: server.databaseUrl });
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM payout_schedules WHERE id = $1 FOR UPDATE', [later.id]);
      const first = await startWorker();
      const answered = await server.request('POST', `${CLOCK}/advance`, {
        headers: apiKey(who),
        body: { seconds: 60 * DAY },
      });
      expect(answered.body.data.advance).toMatchObject({ status: 'running', runsDue: 15, payoutsDue: 9 * 2 + 6 });
      const advanceId: string = answered.body.data.advance.id;
      const held = await waitFor(
        () => readClock(server, who),
        (clock) => clock.advance?.runsFired === 3,
      );
      expect(held.advance).toMatchObject({ status: 'running', runsFired: 3 });
      const [slice] = await server.runtime.dataSource.query(
        `SELECT locked_by FROM graphile_worker.jobs WHERE task_identifier = 'advance_sandbox_clock' AND locked_by IS NOT NULL`,
      );
      expect(slice?.locked_by).toEqual(expect.any(String));

      first.child.kill('SIGKILL');
      await first.exited;
      await holder.query('ROLLBACK');
      await holder.end();
      // The dead worker's claim is released (the release_stalled_jobs sweep does this after JOB_STALL_AFTER_MS), and another worker takes the slice over.
      expect(await releaseStalledJobs(server.runtime.dataSource, 0)).toBeGreaterThanOrEqual(1);
      await startWorker();

      const done = await advanceCompleted(server, who, advanceId, 120_000);
      expect(done.advance).toMatchObject({ status: 'completed', runsDue: 15, runsFired: 15 });
      for (const [schedule, runs] of [
        [weekly, 9],
        [later, 6],
      ] as const) {
        const rows: Array<{ due_at: Date; payout_ids: string[] }> = await server.runtime.dataSource.query(
          `SELECT due_at, payout_ids FROM payout_schedule_runs WHERE schedule_id = $1 ORDER BY due_at`,
          [schedule.id],
        );
        expect(rows.map((row) => row.due_at.getTime())).toEqual(
          Array.from({ length: runs }, (_, index) => Date.parse(schedule.nextRunAt) + index * 7 * DAY * 1000),
        );
        expect(rows.every((row) => row.payout_ids.length === schedule.itemCount)).toBe(true);
      }
      expect(await count(`SELECT count(*)::int AS n FROM payouts WHERE business_id = $1`, [who.businessId])).toBe(
        9 * 2 + 6,
      );
      expect(
        await count(
          `SELECT count(*)::int AS n FROM events WHERE business_id = $1 AND type = 'payout_schedule.run.succeeded'`,
          [who.businessId],
        ),
      ).toBe(15);
      expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
      // Nothing of the advance is left queued.
      expect(
        await count(
          `SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'advance_sandbox_clock'`,
          [],
        ),
      ).toBe(0);
    },
    spawnBudget(2) + 120_000,
  );
});
