import type { RailOutcome } from '../../providers/payout-rail/port';
import { Mode } from '../shared/modes';
import { AreaJobs, cronLine } from '../shared/jobs';
import type { PayoutService } from './payout.service';
import type { ScheduleRunner } from './schedule-runner';
import {
  DISPATCH_PAYOUT_TASK,
  POLL_LATE_PAYOUTS_TASK,
  RAIL_CALLBACK_TASK,
  REDISPATCH_STALLED_PAYOUTS_TASK,
  RUN_DUE_SCHEDULES_TASK,
  RUN_SCHEDULE_TASK,
  type ScheduleJob,
  type PayoutJob,
} from './payouts.job-names';

export function payoutJobs(
  payouts: Pick<PayoutService, 'dispatch' | 'applyRailOutcome' | 'redispatchStalled' | 'pollLateSubmitted'>,
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
      /** Asks the rail about live payouts still SUBMITTED long after it accepted them (their webhook late or lost). */
      [POLL_LATE_PAYOUTS_TASK]: async (_payload, log, system) => {
        const moved = await payouts.pollLateSubmitted(system());
        if (moved.length > 0)
          log.warn(`moved ${moved.length} late payout(s) by the rail's status: ${moved.join(', ')}`);
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
    crontab: [
      cronLine('* * * * *', RUN_DUE_SCHEDULES_TASK),
      cronLine('*/5 * * * *', REDISPATCH_STALLED_PAYOUTS_TASK),
      cronLine('*/5 * * * *', POLL_LATE_PAYOUTS_TASK),
    ],
  };
}
