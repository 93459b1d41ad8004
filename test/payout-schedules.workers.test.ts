import { LedgerService } from '../src/domain/ledger/ledger.service';
import { firstOccurrence, occurrenceAfter } from '../src/domain/payouts/cadence';
import { TestServer, startTestServer, waitFor } from './support/harness';
import { apiKey, bankDetails, createRecipient, fundWallet } from './support/payouts';
import { Spawned, spawnTs } from './support/process';
import { DAY, SCHEDULES, advanceClock, createSchedule, scheduleBody, setPin } from './support/schedules';

/**
 * The runner's guarantee (issue 14, "two worker processes plus repeated wake-ups over a clock
 * advance of three months"), with real operating-system processes: two `tessera worker`
 * processes share the database with this test's API process (which runs no worker), every
 * wake-up is sent many times over, and each due run still fires exactly once.
 */
describe('Scheduled payouts fired by two worker processes', () => {
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

  test('two tessera worker processes and repeated wake-ups over three months of test clock fire each run exactly once (runs and payouts counted)', async () => {
    const who = await server.signUp();
    await setPin(server, who);
    await fundWallet(server, who, '100000.00');
    // Ending 3333: the payouts stay CREATED, so the workers' only work is the runs.
    const payee = (await createRecipient(server, who, bankDetails('3333'))).id;
    const bodies = [
      scheduleBody(payee, { name: 'weekly' }, 60_000),
      scheduleBody(
        payee,
        {
          name: 'biweekly batch',
          cadence: 'BIWEEKLY',
          payloadKind: 'BATCH',
          payload: {
            items: [
              { recipientId: payee, amount: '1.00', currency: 'USD' },
              { recipientId: payee, amount: '2.00', currency: 'USD' },
            ],
          },
        },
        60_000,
      ),
      scheduleBody(payee, { name: 'monthly', cadence: 'MONTHLY', dayOfMonth: 3 }, 60_000),
    ];
    const schedules = [];
    for (const body of bodies) {
      const created = await createSchedule(server, who, body);
      expect(created.status).toBe(201);
      schedules.push(created.body.data);
    }
    // Three months on the business's test clock, set without the advance's own firing: only the workers fire the runs.
    const offset = 92 * DAY;
    await server.runtime.dataSource.query(`INSERT INTO sandbox_clocks (business_id, offset_seconds) VALUES ($1, $2)`, [
      who.businessId,
      offset,
    ]);

    for (let index = 0; index < 2; index += 1) {
      workers.push(
        spawnTs('src/cli/index.ts', ['worker'], {
          DATABASE_URL: server.databaseUrl,
          TESSERA_MASTER_KEY: 'test-master-key',
          JWT_SECRET: 'test-jwt-secret',
          WORKER_CONCURRENCY: '4',
          WORKER_POLL_INTERVAL_MS: '50',
        }),
      );
    }
    await Promise.all(workers.map((worker) => worker.waitFor(/Worker running/)));

    const wake = (task: string, payload: Record<string, unknown>) =>
      server.runtime.dataSource.query(`SELECT graphile_worker.add_job($1, $2::json)`, [task, JSON.stringify(payload)]);
    const wakeUps: Array<Promise<unknown>> = [];
    for (let round = 0; round < 20; round += 1) {
      wakeUps.push(wake('run_due_payout_schedules', {}));
      for (const schedule of schedules)
        wakeUps.push(
          wake('run_payout_schedule', { scheduleId: schedule.id, businessId: who.businessId, livemode: false }),
        );
    }
    await Promise.all(wakeUps);
    const pending = await waitFor(
      () =>
        count(
          `SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier IN ('run_due_payout_schedules', 'run_payout_schedule') AND run_at <= now()`,
          [],
        ),
      (left) => left === 0,
      120_000,
      100,
    );
    expect(pending).toBe(0);
    for (const worker of workers) worker.child.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.exited));

    const now = new Date(Date.now() + offset * 1000);
    let expectedRuns = 0;
    let expectedPayouts = 0;
    for (const [index, schedule] of schedules.entries()) {
      const rule = {
        cadence: schedule.cadence,
        dayOfMonth: schedule.dayOfMonth,
        anchorAt: new Date(bodies[index].startAt),
      };
      let expected = 0;
      for (let due: Date | null = firstOccurrence(rule); due && due <= now; due = occurrenceAfter(rule, due))
        expected += 1;
      const runs: Array<{ due_at: Date; status: string; payout_ids: string[] }> = await server.runtime.dataSource.query(
        `SELECT due_at, status, payout_ids FROM payout_schedule_runs WHERE schedule_id = $1 ORDER BY due_at`,
        [schedule.id],
      );
      expect([schedule.name, runs.length]).toEqual([schedule.name, expected]);
      expect(new Set(runs.map((run) => run.due_at.toISOString())).size).toBe(expected);
      expect(runs.every((run) => run.status === 'SUCCEEDED' && run.payout_ids.length === schedule.itemCount)).toBe(
        true,
      );
      const state = (await server.request('GET', `${SCHEDULES}/${schedule.id}`, { headers: apiKey(who) })).body.data;
      expect(state.runCount).toBe(expected);
      expectedRuns += expected;
      expectedPayouts += expected * schedule.itemCount;
    }
    // Weekly over 92 days: 14 runs; biweekly: 7 runs of 2; monthly: 3. Far more wake-ups (80+) than runs.
    expect(expectedRuns).toBeGreaterThanOrEqual(23);

    expect(await count(`SELECT count(*)::int AS n FROM payouts WHERE business_id = $1`, [who.businessId])).toBe(
      expectedPayouts,
    );
    expect(
      await count(
        `SELECT count(DISTINCT id)::int AS n FROM (SELECT unnest(payout_ids) AS id FROM payout_schedule_runs WHERE business_id = $1) ids`,
        [who.businessId],
      ),
    ).toBe(expectedPayouts);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM events WHERE business_id = $1 AND type = 'payout_schedule.run.succeeded'`,
        [who.businessId],
      ),
    ).toBe(expectedRuns);
    expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
    // One more wake-up, through the clock advance, finds nothing left to fire.
    await advanceClock(server, who, 1);
    expect(
      await count(`SELECT count(*)::int AS n FROM payout_schedule_runs WHERE business_id = $1`, [who.businessId]),
    ).toBe(expectedRuns);
  }, 300_000);
});
