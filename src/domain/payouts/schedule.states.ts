import { TransitionTable, assertTransition } from '../shared/states';
import { ScheduleStatus } from './schedule.entities';

/**
 * What can happen to a schedule: the merchant pauses, resumes, cancels or edits it; the runner
 * runs it (it stays ACTIVE) and completes it (a ONCE schedule after its run, any schedule whose
 * next run would fall after `endAt`).
 */
export type ScheduleAction = 'pause' | 'resume' | 'cancel' | 'edit' | 'run' | 'complete';

const { ACTIVE, PAUSED, COMPLETED, CANCELLED } = ScheduleStatus;

/** Every allowed transition; anything else is a 409 CONFLICT that changes nothing. Only an ACTIVE schedule runs. */
export const SCHEDULE_TRANSITIONS: TransitionTable<ScheduleStatus, ScheduleAction> = {
  [ACTIVE]: { pause: PAUSED, cancel: CANCELLED, edit: ACTIVE, run: ACTIVE, complete: COMPLETED },
  [PAUSED]: { resume: ACTIVE, cancel: CANCELLED, edit: PAUSED },
  [COMPLETED]: {},
  [CANCELLED]: {},
};

/** The status `action` leads to from `from`, or CONFLICT. */
export const scheduleTransition = (from: ScheduleStatus, action: ScheduleAction): ScheduleStatus =>
  assertTransition(SCHEDULE_TRANSITIONS, from, action, (state, act) =>
    act === 'edit' ? `A ${state} schedule cannot be edited` : `Cannot ${act} a schedule that is ${state}`,
  );

/** Whether the table allows the action (a wake-up that finds the schedule no longer ACTIVE fires nothing). */
export const scheduleAllows = (from: ScheduleStatus, action: ScheduleAction): boolean =>
  SCHEDULE_TRANSITIONS[from][action] !== undefined;
