import { EventNameOf } from '../events/catalog';
import { PayoutSchedule, PayoutScheduleRun } from './schedule.entities';

/** The payout_schedule.* events (design section 8): data `{ livemode, object }`, object the schedule's read shape. */
export const ScheduleEvent = {
  RUN_SUCCEEDED: 'payout_schedule.run.succeeded',
  RUN_FAILED: 'payout_schedule.run.failed',
  COMPLETED: 'payout_schedule.completed',
} as const;

export type ScheduleEventType = EventNameOf<typeof ScheduleEvent>;

/** The documented Schedule (interface document), field for field: the read shape and the events' `object`. */
export function scheduleObject(schedule: PayoutSchedule) {
  return {
    id: schedule.id,
    businessId: schedule.businessId,
    name: schedule.name,
    cadence: schedule.cadence,
    dayOfMonth: schedule.dayOfMonth,
    payloadKind: schedule.payloadKind,
    status: schedule.status,
    itemCount: schedule.itemCount,
    nextRunAt: schedule.nextRunAt.toISOString(),
    lastRunAt: schedule.lastRunAt?.toISOString() ?? null,
    endAt: schedule.endAt?.toISOString() ?? null,
    runCount: schedule.runCount,
    maxRunAmountUsd: schedule.maxRunAmountUsd,
    maxRunLocalCaps:
      schedule.maxRunLocalCaps?.map((cap) => ({ currency: cap.currency.toLowerCase(), amount: cap.amount })) ?? null,
    authorizedAt: schedule.authorizedAt.toISOString(),
    createdAt: schedule.createdAt.toISOString(),
    updatedAt: schedule.updatedAt.toISOString(),
  };
}

export type ScheduleObject = ReturnType<typeof scheduleObject>;

/** A run as `/runs` lists it: `runAt` is the occurrence the run stands for. */
export function scheduleRunObject(run: PayoutScheduleRun) {
  return {
    id: run.id,
    runAt: run.dueAt.toISOString(),
    status: run.status,
    reason: run.reason,
    payoutIds: [...run.payoutIds],
    batchId: run.batchId,
  };
}

export type ScheduleRunObject = ReturnType<typeof scheduleRunObject>;

/** `{ livemode, object }`, plus the run the event is about (run events only). */
export const scheduleEventData = (schedule: PayoutSchedule, run: PayoutScheduleRun | null = null) => ({
  livemode: schedule.livemode,
  object: scheduleObject(schedule),
  ...(run ? { run: scheduleRunObject(run) } : {}),
});
