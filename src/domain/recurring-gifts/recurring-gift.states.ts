import { TransitionTable, assertTransition } from '../shared/states';
import { RecurringGiftStatus } from './recurring-gift.entity';

/**
 * What happens to a recurring gift: charged (it stays ACTIVE), paused after too many consecutive
 * failures, resumed by the merchant, or cancelled for good.
 */
export type RecurringGiftAction = 'charge' | 'pause' | 'resume' | 'cancel';

const { ACTIVE, PAUSED, CANCELLED } = RecurringGiftStatus;

/**
 * Every allowed transition; anything else is a 409 CONFLICT that changes nothing. Resuming an
 * ACTIVE gift and cancelling a CANCELLED one lead to the same state (nothing changes); CANCELLED is final.
 */
const TRANSITIONS: TransitionTable<RecurringGiftStatus, RecurringGiftAction> = {
  [ACTIVE]: { charge: ACTIVE, pause: PAUSED, resume: ACTIVE, cancel: CANCELLED },
  [PAUSED]: { resume: ACTIVE, cancel: CANCELLED },
  [CANCELLED]: { cancel: CANCELLED },
};

const REFUSALS: Readonly<Record<RecurringGiftAction, (from: RecurringGiftStatus) => string>> = {
  charge: (from) => `A ${from} recurring gift cannot be charged`,
  pause: (from) => `A ${from} recurring gift cannot be paused`,
  resume: (from) => `A ${from} recurring gift cannot be resumed`,
  cancel: (from) => `A ${from} recurring gift cannot be cancelled`,
};

/** The status a gift moves to, or CONFLICT when the table does not allow the action from `from`. */
export function recurringGiftTransition(from: RecurringGiftStatus, action: RecurringGiftAction): RecurringGiftStatus {
  return assertTransition(TRANSITIONS, from, action, (state) => REFUSALS[action](state));
}

/** Whether the table allows the action (a job that finds the gift no longer ACTIVE does nothing). */
export const recurringGiftAllows = (from: RecurringGiftStatus, action: RecurringGiftAction) =>
  TRANSITIONS[from][action] !== undefined;
