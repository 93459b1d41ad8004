import type { RailOutcome } from '../../providers/payout-rail/port';
import { Mode } from '../shared/modes';
import { AreaJobs, JobRequest, cronLine } from '../shared/jobs';
import type { Payout } from './payout.entities';
import type { PayoutService } from './payout.service';
import type { ScheduleRunner } from './schedule-runner';

/** The payouts area's background tasks (src/jobs/worker.ts runs them). */
export const DISPATCH_PAYOUT_TASK = 'dispatch_payout';
export const RAIL_CALLBACK_TASK = 'payout_rail_callback';
/** The sweep (cron, every 5 minutes) that sends again payouts whose dispatch stalled. */
export const REDISPATCH_STALLED_PAYOUTS_TASK = 'redispatch_stalled_payouts';
/** The schedule runner's sweep (cron, every minute) and one schedule's run at its nextRunAt. */
export const RUN_DUE_SCHEDULES_TASK = 'run_due_payout_schedules';
export const RUN_SCHEDULE_TASK = 'run_payout_schedule';

interface ScheduleJob {
  scheduleId: string;
  businessId: string;
  livemode: boolean;
}

/**
 * A schedule's run at `runAt` (wall-clock time: its nextRunAt less its business's test-clock
 * offset), at most one pending per schedule. Only a wake-up: the runner decides what is due.
 */
export const scheduleRunJob = (schedule: ScheduleJob, runAt: Date): JobRequest => ({
  task: RUN_SCHEDULE_TASK,
  payload: { scheduleId: schedule.scheduleId, businessId: schedule.businessId, livemode: schedule.livemode },
  options: { runAt, jobKey: `${RUN_SCHEDULE_TASK}:${schedule.scheduleId}`, maxAttempts: 5 },
});

interface PayoutJob {
  payoutId: string;
  businessId: string;
  livemode: boolean;
}

/** The dispatch of a created payout, at most one pending per payout. */
export const dispatchJob = (payout: Pick<Payout, 'id' | 'businessId' | 'livemode'>): JobRequest => ({
  task: DISPATCH_PAYOUT_TASK,
  payload: { payoutId: payout.id, businessId: payout.businessId, livemode: payout.livemode },
  options: { jobKey: `${DISPATCH_PAYOUT_TASK}:${payout.id}`, maxAttempts: 10 },
});

/** The rail's report on a submitted payout, after `afterMs`, at most one pending per payout (the default 5 attempts). */
export const railCallbackJob = (
  payout: Pick<Payout, 'id' | 'businessId' | 'livemode'>,
  outcome: RailOutcome,
  afterMs: number,
): JobRequest => ({
  task: RAIL_CALLBACK_TASK,
  payload: { payoutId: payout.id, businessId: payout.businessId, livemode: payout.livemode, outcome },
  options: { runAt: new Date(Date.now() + afterMs), jobKey: `${RAIL_CALLBACK_TASK}:${payout.id}` },
});

export function payoutJobs(
  payouts: Pick<PayoutService, 'dispatch' | 'applyRailOutcome' | 'redispatchStalled'>,
  schedules: Pick<ScheduleRunner, 'runDue' | 'runSchedule'>,
): AreaJobs {
  return {
    actor: 'payouts',
    tasks: {
      /** Hands a created payout to the rail (outside any transaction; the rail dedupes on the payout id). */
      [DISPATCH_PAYOUT_TASK]: async (payload, _log, system) => {
        const job = payload as PayoutJob;
        await payouts.dispatch(
          system().forBusiness(job.businessId, job.livemode ? Mode.LIVE : Mode.TEST),
          job.payoutId,
        );
      },
      /** The rail's report on a submitted payout (the sandbox rail's callback): settled or failed, applied once. */
      [RAIL_CALLBACK_TASK]: async (payload, log, system) => {
        const job = payload as PayoutJob & { outcome: RailOutcome };
        const ctx = system().forBusiness(job.businessId, job.livemode ? Mode.LIVE : Mode.TEST);
        await payouts.applyRailOutcome(ctx, job.payoutId, job.outcome).catch((error: unknown) => {
          // A report about a payout already moved elsewhere (cancelled, advanced by hand) changes nothing.
          if ((error as { code?: string }).code === 'CONFLICT')
            log.warn(`payout ${job.payoutId}: rail report ${job.outcome.status} ignored (${(error as Error).message})`);
          else throw error;
        });
      },
      /** Sends again the payouts claimed for the rail long ago, still without its reference, whose dispatch job gave up. */
      [REDISPATCH_STALLED_PAYOUTS_TASK]: async (_payload, log, system) => {
        const ids = await payouts.redispatchStalled(system());
        if (ids.length > 0)
          log.warn(`dispatching again ${ids.length} payout(s) whose dispatch stalled: ${ids.join(', ')}`);
      },
      /** Fires every due run of every schedule (the backstop of the per-schedule jobs; any number of workers, each run once). */
      [RUN_DUE_SCHEDULES_TASK]: async (_payload, log, system) => {
        const fired = await schedules.runDue(system(), { limit: 500 });
        if (fired > 0) log.info(`fired ${fired} scheduled payout run(s)`);
      },
      /** Fires the due runs of one schedule. */
      [RUN_SCHEDULE_TASK]: async (payload, _log, system) => {
        const job = payload as ScheduleJob;
        await schedules.runSchedule(system().forBusiness(job.businessId, job.livemode ? Mode.LIVE : Mode.TEST), {
          scheduleId: job.scheduleId,
        });
      },
    },
    crontab: [cronLine('* * * * *', RUN_DUE_SCHEDULES_TASK), cronLine('*/5 * * * *', REDISPATCH_STALLED_PAYOUTS_TASK)],
  };
}
