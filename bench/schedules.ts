/**
 * Scheduled payouts: due runs fired per second with 1,000 ACTIVE schedules all due at once and 2
 * workers (graphile-worker, in this process), each run a payout written through the payouts domain
 * with its run row and the schedule's advance. Baseline in the same run: the same number of payouts
 * created directly with PayoutService.create from 2 concurrent loops (the payout work alone, without
 * the runner's pricing, locking, run row and advance). The recipients end in 3333 (the sandbox
 * rail's "stays CREATED"): the bench measures the runner, not dispatch.
 * Then the largest test clock advance one call may ask for (MAX_ADVANCE_PAYOUTS: a 200-item weekly
 * schedule over 29 days, 5 runs, 1,000 payouts): from the call to its advance `completed`.
 */
import { Mode } from '../src/domain/shared/modes';
import { MAX_ADVANCE_PAYOUTS } from '../src/domain/sandbox/clock.service';
import { ClockAdvanceStatus } from '../src/domain/sandbox/sandbox-clock.entity';
import { SchedulePayloadKind, ScheduleCadence } from '../src/domain/payouts/schedule.entities';
import { RequestContext } from '../src/domain/shared/context';
import { startWorker, stopWorker } from '../src/jobs/worker';
import { Runtime } from '../src/runtime';

const SCHEDULES = Number(process.env.BENCH_SCHEDULES ?? 1_000);
const BUSINESSES = 10;
const PIN = '135790';

export async function benchSchedules(runtime: Runtime) {
  const { core, dataSource } = runtime;
  const owners: Array<{ ctx: RequestContext; recipientId: string }> = [];
  for (let index = 0; index < BUSINESSES; index += 1) {
    const { business } = await core.identity.businesses.createBusinessWithOwnerAccount(core.anonymousContext(), {
      email: `bench-schedules-${index}@example.com`,
      password: 'bench password 1',
      name: `Bench schedules ${index}`,
    });
    const ctx = new RequestContext(dataSource, { kind: 'system', name: 'bench' }, business.id, Mode.TEST);
    await core.wallets.sandboxFund(ctx, { currency: 'USD', amount: 100_000_000n });
    await core.payoutPins.set(ctx, { pin: PIN, currentPin: null });
    const { recipient } = await core.recipients.create(ctx, {
      label: 'Bench supplier',
      details: {
        rail: 'LOCAL_BANK',
        country: 'NG',
        currency: 'NGN',
        bankCode: '058',
        bankName: 'GTBank',
        accountNumber: `01234${String(index).padStart(2, '0')}3333`,
        accountName: 'Bench',
      },
    });
    const schedule = await core.payoutSchedules.create(ctx, {
      name: 'Bench',
      cadence: ScheduleCadence.WEEKLY,
      dayOfMonth: null,
      startAt: new Date(Date.now() + 3_600_000),
      endAt: null,
      payload: {
        kind: SchedulePayloadKind.SINGLE as const,
        payout: { recipientId: recipient.id, amount: 100n, currency: 'USD', reference: null },
      },
      maxRunAmountUsd: '1000000',
      maxRunLocalCaps: null,
      pin: PIN,
    });
    // The rest are copies of the authorised one (the PIN's hash would otherwise dominate the setup).
    await dataSource.query(
      `INSERT INTO payout_schedules (business_id, livemode, name, cadence, day_of_month, payload_kind, status, payload, item_count, start_at, next_run_at, max_run_amount_usd, max_run_local_caps, authorized_at)
       SELECT business_id, livemode, name, cadence, day_of_month, payload_kind, status, payload, item_count, start_at, next_run_at, max_run_amount_usd, max_run_local_caps, authorized_at
       FROM payout_schedules, generate_series(2, $2) WHERE id = $1`,
      [schedule.id, SCHEDULES / BUSINESSES],
    );
    owners.push({ ctx, recipientId: recipient.id });
  }
  // All due now: a minute ago, on their own series.
  await dataSource.query(
    `UPDATE payout_schedules SET start_at = now() - interval '1 minute', next_run_at = now() - interval '1 minute' WHERE name = 'Bench'`,
  );
  const workers = await Promise.all([1, 2].map(() => startWorker(core, runtime.databaseUrl, () => undefined)));
  const started = performance.now();
  try {
    await dataSource.query(
      `SELECT graphile_worker.add_job('run_payout_schedule', json_build_object('scheduleId', id, 'businessId', business_id, 'livemode', livemode),
         job_key := 'run_payout_schedule:' || id) FROM payout_schedules WHERE name = 'Bench'`,
    );
    const deadline = started + 300_000;
    let fired = 0;
    while (fired < SCHEDULES && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      fired = (await dataSource.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM payout_schedule_runs`))[0]
        .n;
    }
    const seconds = (performance.now() - started) / 1000;
    const runsPerSecond = fired / seconds;
    const baselineStarted = performance.now();
    let made = 0;
    await Promise.all(
      [0, 1].map(async (loop) => {
        while (made < fired) {
          const owner = owners[(made + loop) % owners.length];
          made += 1;
          await core.payouts.create(owner.ctx, {
            recipientId: owner.recipientId,
            amount: 100n,
            currency: 'USD',
            quoteId: null,
            reference: null,
            metadata: null,
          });
        }
      }),
    );
    const payoutsPerSecond = made / ((performance.now() - baselineStarted) / 1000);
    console.log(
      `schedules: ${fired} of ${SCHEDULES} due runs fired by 2 workers in ${seconds.toFixed(1)} s: ${runsPerSecond.toFixed(0)} runs/s`,
    );
    console.log(
      `schedules: baseline ${payoutsPerSecond.toFixed(0)} payouts/s created directly (PayoutService.create, 2 loops), ratio ${(runsPerSecond / payoutsPerSecond).toFixed(2)}`,
    );
    await benchLargestAdvance(runtime, owners[0]);
  } finally {
    await Promise.all(workers.map(stopWorker));
  }
}

/** The largest advance one call may ask for: 5 runs of a 200-item weekly batch (1,000 payouts), timed from the call to `completed`. */
async function benchLargestAdvance(runtime: Runtime, owner: { ctx: RequestContext; recipientId: string }) {
  const { core } = runtime;
  const items = Array.from({ length: MAX_ADVANCE_PAYOUTS / 5 }, () => ({
    recipientId: owner.recipientId,
    amount: 100n,
    currency: 'USD',
    reference: null,
  }));
  await core.payoutSchedules.create(owner.ctx, {
    name: 'Bench advance',
    cadence: ScheduleCadence.WEEKLY,
    dayOfMonth: null,
    startAt: new Date(Date.now() + 3_600_000),
    endAt: null,
    payload: { kind: SchedulePayloadKind.BATCH as const, items },
    maxRunAmountUsd: '1000000',
    maxRunLocalCaps: null,
    pin: PIN,
  });
  // The bench's other schedules of this business are paused first: the advance fires this one alone.
  await runtime.dataSource.query(
    `UPDATE payout_schedules SET status = 'PAUSED' WHERE business_id = $1 AND name = 'Bench'`,
    [owner.ctx.businessId],
  );
  const { ctx } = owner;
  const started = performance.now();
  const { advance } = await core.sandboxClock.advance(ctx, { seconds: 29 * 86_400 });
  let current = advance!;
  while (current.status === ClockAdvanceStatus.RUNNING && performance.now() - started < 600_000) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    current = (await core.sandboxClock.state(ctx)).advance!;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `schedules: the largest advance (${current.runsFired} of ${current.runsDue} runs, ${current.payoutsDue} payouts) ${current.status} in ${seconds.toFixed(1)} s, 2 workers`,
  );
}
