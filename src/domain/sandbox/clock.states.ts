import { TransitionTable, assertTransition } from '../shared/states';
import { ClockAdvanceStatus } from './sandbox-clock.entity';

/**
 * What happens to a business's test clock, read from its latest advance: `advance` starts a new
 * one (one at a time per business); `fire`: a background slice fires what fell due; `complete`:
 * the last slice (or an advance with nothing due) completes it.
 */
export type ClockAction = 'advance' | 'fire' | 'complete';

/** A clock whose business never advanced it (no advance row). */
export const NEVER_ADVANCED = 'never_advanced';
/** The clock's status: its latest advance's, or NEVER_ADVANCED. */
export type ClockStatus = ClockAdvanceStatus | typeof NEVER_ADVANCED;

const { RUNNING, COMPLETED } = ClockAdvanceStatus;

/** Every allowed transition: a clock advances unless its latest advance still runs, and only a running advance fires or completes. */
export const CLOCK_TRANSITIONS: TransitionTable<ClockStatus, ClockAction> = {
  [NEVER_ADVANCED]: { advance: RUNNING },
  [RUNNING]: { fire: RUNNING, complete: COMPLETED },
  [COMPLETED]: { advance: RUNNING },
};

/** The status of a clock whose latest advance is `latest` (null before the first). */
export const clockStatusOf = (latest: { status: ClockAdvanceStatus } | null): ClockStatus =>
  latest?.status ?? NEVER_ADVANCED;

/** Whether the table allows the action (the service answers a refusal in its own words: which advance runs, how far it is). */
export const clockAllows = (from: ClockStatus, action: ClockAction): boolean =>
  CLOCK_TRANSITIONS[from][action] !== undefined;

/** The status `action` leads to from `from`, or CONFLICT (a caller with its own refusal checks clockAllows first). */
export const clockTransition = (from: ClockStatus, action: ClockAction): ClockAdvanceStatus =>
  assertTransition(
    CLOCK_TRANSITIONS,
    from,
    action,
    (state, act) => `Cannot ${act} a test clock that is ${state}`,
  ) as ClockAdvanceStatus;

/** The statuses of an advance row from which `action` is allowed. */
export const advanceStatusesAllowing = (action: ClockAction): ClockAdvanceStatus[] =>
  Object.values(ClockAdvanceStatus).filter((status) => clockAllows(status, action));
