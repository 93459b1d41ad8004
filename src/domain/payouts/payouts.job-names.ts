import type { RailOutcome } from '../../providers/payout-rail/port';
import { JobRequest } from '../shared/jobs';
import type { Payout } from './payout.entities';

/** The payouts area's background tasks (src/jobs/worker.ts runs them). */
export const DISPATCH_PAYOUT_TASK = 'dispatch_payout';
export const RAIL_CALLBACK_TASK = 'payout_rail_callback';
/** The sweep (cron, every 5 minutes) that sends again payouts whose dispatch stalled. */
export const REDISPATCH_STALLED_PAYOUTS_TASK = 'redispatch_stalled_payouts';
/** The status poll (cron, every 5 minutes) of live payouts whose rail's webhook is late. */
export const POLL_LATE_PAYOUTS_TASK = 'poll_late_payouts';
/** The schedule runner's sweep (cron, every minute) and one schedule's run at its nextRunAt. */
export const RUN_DUE_SCHEDULES_TASK = 'run_due_payout_schedules';
export const RUN_SCHEDULE_TASK = 'run_payout_schedule';

export interface ScheduleJob {
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

export interface PayoutJob {
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
