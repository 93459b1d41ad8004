import { TransitionTable, assertTransition } from '../shared/states';
import { ScheduleStatus } from './schedule.entities';

/**
 * What can happen to a schedule: the merchant pauses, resumes or cancels it; the runner completes
 * it (a ONCE schedule after its run, any schedule whose next run would fall after `endAt`).
 */
export type ScheduleAction = 'pause' | 'resume' | 'cancel' | 'complete';

/** Every allowed transition; anything else is a 409 CONFLICT that changes nothing. */
export const SCHEDULE_TRANSITIONS: TransitionTable<ScheduleStatus, ScheduleAction> = {
  [ScheduleStatus.ACTIVE]: {
    pause: ScheduleStatus.PAUSED,
    cancel: ScheduleStatus.CANCELLED,
    complete: ScheduleStatus.COMPLETED,
  },
  [ScheduleStatus.PAUSED]: { resume: ScheduleStatus.ACTIVE, cancel: ScheduleStatus.CANCELLED },
  [ScheduleStatus.COMPLETED]: {},
  [ScheduleStatus.CANCELLED]: {},
};

/** The status `action` leads to from `from`, or CONFLICT. */
export const scheduleTransition = (from: ScheduleStatus, action: ScheduleAction): ScheduleStatus =>
  assertTransition(SCHEDULE_TRANSITIONS, from, action, (state, act) => `Cannot ${act} a schedule that is ${state}`);

/** Schedules that can still be edited (their future runs can change). */
export const EDITABLE_SCHEDULE_STATUSES: readonly ScheduleStatus[] = [ScheduleStatus.ACTIVE, ScheduleStatus.PAUSED];
