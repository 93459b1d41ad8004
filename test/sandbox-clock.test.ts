import { Client } from 'pg';
import { LedgerService } from '../src/domain/ledger/ledger.service';
import { TestMerchant, TestServer, PATIENCE_MS, startDeliveringServer, waitFor, within } from './support/harness';
import { PAYOUTS, apiKey, createPayout, createRecipient, fundWallet } from './support/payouts';
import {
  CLOCK,
  DAY,
  SCHEDULES,
  advanceCompleted,
  advancePatienceMs,
  createSchedule,
  readClock,
  scheduleBody,
  setPin,
} from './support/schedules';

const ADVANCE = `${CLOCK}/advance`;
/** The big advance's test, a backstop sized by its work: the waits before its advance completes, then its 15 runs. */
const BIG_ADVANCE_TEST_MS = 4 * PATIENCE_MS + advancePatienceMs(15);
const GQL_CLOCK =
  '{ sandboxClock { now offsetSeconds advance { id seconds status runsDue payoutsDue runsFired untilAt createdAt completedAt } } }';
const GQL_ADVANCE = `mutation($input: AdvanceSandboxClockInput!) { advanceSandboxClock(input: $input) {
  sandboxClock { offsetSeconds advance { id status runsDue payoutsDue runsFired } } userErrors { field message code } } }`;

/**
 * A test clock's advance is bounded work run in the background (issue 26, finding 2): what it would
 * fire is counted before the clock moves and refused above the documented bound; the runs fire in
 * sliced background jobs, one business's slices at a time, so another business's payouts do not wait
 * behind them; the clock reports the advance's progress.
 */
describe('The test clock: a bounded advance fired in the background', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startDeliveringServer({ payoutSandboxSettleMs: 200 });
  });
  afterAll(async () => server.close());

  const post = (who: TestMerchant, path: string, body?: unknown) =>
    server.request('POST', path, { headers: apiKey(who), body });
  const count = async (sql: string, params: unknown[]) =>
    (await server.runtime.dataSource.query(sql, params))[0].n as number;
  const readyMerchant = async (funds = '1000.00') => {
    const who = await server.signUp();
    await setPin(server, who);
    await fundWallet(server, who, funds);
    return { who, recipientId: (await createRecipient(server, who)).id };
  };
  const scheduled = async (who: TestMerchant, body: Record<string, unknown>) => {
    const created = await createSchedule(server, who, body);
    expect(created.status).toBe(201);
    return created.body.data as { id: string; nextRunAt: string };
  };

  test('an advance that would fire more payouts than one advance may is refused with 422 saying how many, the limit and how far to advance; nothing changes', async () => {
    const { who, recipientId } = await readyMerchant('100000.00');
    const items = Array.from({ length: 200 }, (_, index) => ({
      recipientId,
      amount: '1.00',
      currency: 'USD',
      reference: `item ${index}`,
    }));
    // The probe's case: a 200-item weekly schedule advanced 366 days would make 53 runs, 10,600 payouts.
    const schedule = await scheduled(
      who,
      scheduleBody(recipientId, { payloadKind: 'BATCH', payload: { items }, maxRunAmountUsd: '100000.00' }),
    );

    const refused = await post(who, ADVANCE, { seconds: 366 * DAY });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'UNPROCESSABLE', statusCode: 422 } });
    const message: string = refused.body.error.message;
    expect(message).toMatch(/53 scheduled-payout runs creating 10,600 payouts/);
    expect(message).toMatch(/at most 1,000/);
    expect(refused.body.error.errors.seconds).toEqual([message]);
    // The advice: at most the seconds that stop before the sixth run (five runs are 1,000 payouts).
    const advised = Number(/at most ([\d,]+) seconds/.exec(message)![1].replace(/,/g, ''));
    const sixthRun = Date.parse(schedule.nextRunAt) + 35 * DAY * 1000;
    expect(advised * 1000).toBeLessThan(sixthRun - Date.now() + 60_000);
    expect(advised * 1000).toBeGreaterThan(sixthRun - Date.now() - 7 * DAY * 1000);

    // Nothing changed: the clock, the schedule, no runs, no payouts, no advance.
    expect(await readClock(server, who)).toMatchObject({ offsetSeconds: 0, advance: null });
    expect(
      (await server.request('GET', `${SCHEDULES}/${schedule.id}`, { headers: apiKey(who) })).body.data,
    ).toMatchObject({ runCount: 0, nextRunAt: schedule.nextRunAt });
    expect(
      await count(`SELECT count(*)::int AS n FROM payout_schedule_runs WHERE business_id = $1`, [who.businessId]),
    ).toBe(0);
    expect(await count(`SELECT count(*)::int AS n FROM payouts WHERE business_id = $1`, [who.businessId])).toBe(0);

    // GraphQL refuses the same, with the same message (its advice a moment later: the wall clock moved on).
    const graphql = await server.graphql<any>(GQL_ADVANCE, { input: { seconds: 366 * DAY } }, apiKey(who));
    const sameBut = (text: string) => text.replace(/at most [\d,]+ seconds/, 'at most N seconds');
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.advanceSandboxClock).toEqual({
      sandboxClock: null,
      userErrors: [{ field: ['input', 'seconds'], code: 'UNPROCESSABLE', message: expect.any(String) }],
    });
    expect(sameBut(graphql.body.data.advanceSandboxClock.userErrors[0].message)).toBe(sameBut(message));
    expect((await readClock(server, who)).offsetSeconds).toBe(0);
  });

  test(
    "a big advance of business A runs in background slices: it answers at once with its progress, B's payout settles while A's advance is still running, a second advance of A is 409, and A's runs then all fire once",
    async () => {
      const a = await readyMerchant('100000.00');
      const weekly = await scheduled(a.who, scheduleBody(a.recipientId, { name: 'weekly' }));
      const later = await scheduled(a.who, scheduleBody(a.recipientId, { name: 'later' }, 20 * DAY * 1000));
      // Sixty days: weekly fires 9 runs (hour 1, then every 7 days), later 6 (day 20, then every 7 days).
      // Holding later's row keeps A's advance in its slice after the three weekly runs before day 20: running, by construction.
      const holder = new Client({ connectionString: server.databaseUrl });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT id FROM payout_schedules WHERE id = $1 FOR UPDATE', [later.id]);

        const answered = await within(
          post(a.who, ADVANCE, { seconds: 60 * DAY }),
          PATIENCE_MS,
          'the advance answers while its work waits',
        );
        expect(answered.status).toBe(200);
        expect(answered.body.data).toMatchObject({
          offsetSeconds: 60 * DAY,
          advance: { seconds: 60 * DAY, status: 'running', runsDue: 15, payoutsDue: 15, completedAt: null },
        });
        const advanceId: string = answered.body.data.advance.id;
        const held = await waitFor(
          () => readClock(server, a.who),
          (clock) => clock.advance?.runsFired === 3,
        );
        expect(held.advance).toMatchObject({ id: advanceId, status: 'running', runsFired: 3 });

        // A second advance while one runs: 409, the progress in the message, nothing changed.
        const second = await post(a.who, ADVANCE, { seconds: 60 });
        expect(second.status).toBe(409);
        expect(second.body.error).toMatchObject({ code: 'CONFLICT' });
        expect(second.body.error.message).toMatch(/3 of 15 runs/);
        expect((await readClock(server, a.who)).offsetSeconds).toBe(60 * DAY);

        // Business B's payout dispatches and settles meanwhile.
        const b = await readyMerchant();
        const payout = await createPayout(server, b.who, { recipientId: b.recipientId, amount: '5.00' });
        expect(payout.status).toBe(201);
        const settled = await waitFor(
          async () =>
            (await server.request('GET', `${PAYOUTS}/${payout.body.data.id}`, { headers: apiKey(b.who) })).body.data,
          (current) => current.status === 'SETTLED',
        );
        expect(settled.status).toBe('SETTLED');
        // ...while A's advance is still where it was: B did not wait behind it.
        expect((await readClock(server, a.who)).advance).toMatchObject({
          id: advanceId,
          status: 'running',
          runsFired: 3,
        });
        // GraphQL shows the same progress.
        const overGraphql = (await server.graphql<any>(GQL_CLOCK, {}, apiKey(a.who))).body.data.sandboxClock;
        expect(overGraphql.advance).toMatchObject({ id: advanceId, status: 'RUNNING', runsDue: 15, runsFired: 3 });
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end();
      }

      const done = await advanceCompleted(server, a.who, (await readClock(server, a.who)).advance!.id);
      expect(done.advance).toMatchObject({ status: 'completed', runsDue: 15, runsFired: 15 });
      expect(Date.parse(done.advance!.completedAt!)).toBeGreaterThanOrEqual(Date.parse(done.advance!.createdAt));
      for (const [schedule, runs] of [
        [weekly, 9],
        [later, 6],
      ] as const) {
        const rows: Array<{ due_at: Date }> = await server.runtime.dataSource.query(
          `SELECT due_at FROM payout_schedule_runs WHERE schedule_id = $1 ORDER BY due_at`,
          [schedule.id],
        );
        expect(rows).toHaveLength(runs);
        expect(rows.map((row) => row.due_at.getTime())).toEqual(
          Array.from({ length: runs }, (_, index) => Date.parse(schedule.nextRunAt) + index * 7 * DAY * 1000),
        );
      }
      expect(await count(`SELECT count(*)::int AS n FROM payouts WHERE business_id = $1`, [a.who.businessId])).toBe(15);
      expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
    },
    BIG_ADVANCE_TEST_MS,
  );

  test('an advance whose slice job gave up resumes when another advance is asked for (that one is 409)', async () => {
    const { who, recipientId } = await readyMerchant();
    const schedule = await scheduled(who, scheduleBody(recipientId));
    // As if an advance of two hours had been recorded and its slice job had given up and gone.
    await server.runtime.dataSource.query(
      `INSERT INTO sandbox_clocks (business_id, offset_seconds) VALUES ($1, 7200)`,
      [who.businessId],
    );
    const [{ id }] = await server.runtime.dataSource.query(
      `INSERT INTO sandbox_clock_advances (business_id, seconds, from_at, until_at, runs_due, payouts_due, status)
       VALUES ($1, 7200, now(), now() + interval '2 hours', 1, 1, 'running') RETURNING id`,
      [who.businessId],
    );
    const refused = await post(who, ADVANCE, { seconds: 60 });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/0 of 1 runs/);
    const done = await advanceCompleted(server, who, id);
    expect(done).toMatchObject({ offsetSeconds: 7200, advance: { id, status: 'completed', runsDue: 1, runsFired: 1 } });
    expect(
      await count(`SELECT count(*)::int AS n FROM payout_schedule_runs WHERE schedule_id = $1`, [schedule.id]),
    ).toBe(1);
  });

  test('an advance with nothing due completes at once; GraphQL advances and reads the same progress', async () => {
    const { who } = await readyMerchant();
    const answered = await post(who, ADVANCE, { seconds: DAY });
    expect(answered.status).toBe(200);
    expect(answered.body.data.advance).toMatchObject({
      status: 'completed',
      runsDue: 0,
      payoutsDue: 0,
      runsFired: 0,
      seconds: DAY,
    });
    const advanced = (await server.graphql<any>(GQL_ADVANCE, { input: { seconds: 60 } }, apiKey(who))).body.data
      .advanceSandboxClock;
    expect(advanced.userErrors).toEqual([]);
    const overGraphql = advanced.sandboxClock;
    expect(overGraphql).toMatchObject({
      offsetSeconds: DAY + 60,
      advance: { status: 'COMPLETED', runsDue: 0, runsFired: 0 },
    });
    expect((await server.graphql<any>(GQL_CLOCK, {}, apiKey(who))).body.data.sandboxClock.advance.id).toBe(
      overGraphql.advance.id,
    );
  });
});
