import { TransitionTable, assertTransition } from '../shared/states';
import { DisputeStatus } from './payment.entities';

/** What can happen to a payment's dispute: the cardholder opens it, then the merchant wins or loses it. */
export type DisputeAction = 'open' | 'win' | 'lose';

/** A payment that has never been disputed. */
export const UNDISPUTED = 'UNDISPUTED';
type DisputeState = DisputeStatus | typeof UNDISPUTED;

/**
 * Every allowed transition; anything else is a 409 CONFLICT that changes nothing. A payment is
 * disputed at most once, as a card network allows one chargeback per charge: WON and LOST are final,
 * so a won dispute (whose amount went back to the wallet) can never be reopened to take the amount
 * and a second fee again.
 */
const TRANSITIONS: TransitionTable<DisputeState, DisputeAction> = {
  [UNDISPUTED]: { open: DisputeStatus.OPEN },
  [DisputeStatus.OPEN]: { win: DisputeStatus.WON, lose: DisputeStatus.LOST },
  [DisputeStatus.WON]: {},
  [DisputeStatus.LOST]: {},
};

const REFUSALS: Readonly<Record<DisputeAction, (from: DisputeState) => string>> = {
  open: (from) => `This payment was already disputed (the dispute is ${from}); a payment can be disputed only once`,
  win: (from) => `The dispute is already ${from}`,
  lose: (from) => `The dispute is already ${from}`,
};

/** The status a dispute moves to, or CONFLICT when the table does not allow the action from `from`. */
export function disputeTransition(from: DisputeState, action: DisputeAction): DisputeStatus {
  return assertTransition(TRANSITIONS, from, action, (state) => REFUSALS[action](state)) as DisputeStatus;
}
