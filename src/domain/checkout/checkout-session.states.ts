import { TransitionTable, assertTransition } from '../shared/states';
import { CheckoutSessionStatus } from './checkout-session.entity';

/**
 * What happens to a checkout session: paid once (complete), past its time (expire), withdrawn with
 * its voided invoice (withdraw), or locked after too many failed attempts (lock).
 */
export type CheckoutSessionAction = 'complete' | 'expire' | 'withdraw' | 'lock';

const { OPEN, COMPLETED, EXPIRED, LOCKED } = CheckoutSessionStatus;

/**
 * Every allowed transition. Only an OPEN session changes; withdrawing a session that is already
 * off sale (EXPIRED or LOCKED) leaves it as it is, and a paid one can never be withdrawn.
 */
const TRANSITIONS: TransitionTable<CheckoutSessionStatus, CheckoutSessionAction> = {
  [OPEN]: { complete: COMPLETED, expire: EXPIRED, withdraw: EXPIRED, lock: LOCKED },
  [COMPLETED]: {},
  [EXPIRED]: { withdraw: EXPIRED },
  [LOCKED]: { withdraw: LOCKED },
};

const refusal = (from: CheckoutSessionStatus, action: CheckoutSessionAction) =>
  from === COMPLETED ? 'The checkout session is already paid' : `Cannot ${action} the checkout session: it is ${from}`;

/** The status a session moves to, or CONFLICT when the table does not allow the action from `from`. */
export function checkoutSessionTransition(
  from: CheckoutSessionStatus,
  action: CheckoutSessionAction,
): CheckoutSessionStatus {
  return assertTransition(TRANSITIONS, from, action, refusal);
}

/** Whether the table allows the action (jobs that find a session already moved on do nothing). */
export const checkoutSessionAllows = (from: CheckoutSessionStatus, action: CheckoutSessionAction) =>
  TRANSITIONS[from][action] !== undefined;
