import { RowMachine, rowMachine } from '../shared/row-transition';
import { TransitionTable, assertTransition } from '../shared/states';
import { Payout, PayoutStatus } from './payout.entities';

/**
 * What can happen to a payout. `hold`: the review threshold or the rail's compliance check keeps
 * it for a person to decide; `approve` returns it to CREATED for dispatch; `submit`: handed to the
 * rail; `settle` / `fail`: the rail's report (or the sandbox's advance); `reject`: a reviewer
 * refuses it; `cancel`: the merchant takes it back before dispatch.
 */
export type PayoutAction = 'hold' | 'approve' | 'reject' | 'submit' | 'settle' | 'fail' | 'cancel';

/** Every allowed transition; anything else is a 409 CONFLICT that changes nothing. */
export const PAYOUT_TRANSITIONS: TransitionTable<PayoutStatus, PayoutAction> = {
  [PayoutStatus.CREATED]: {
    hold: PayoutStatus.PENDING_REVIEW,
    submit: PayoutStatus.SUBMITTED,
    fail: PayoutStatus.FAILED,
    cancel: PayoutStatus.CANCELLED,
  },
  [PayoutStatus.PENDING_REVIEW]: { approve: PayoutStatus.CREATED, reject: PayoutStatus.FAILED },
  [PayoutStatus.SUBMITTED]: { settle: PayoutStatus.SETTLED, fail: PayoutStatus.FAILED },
  [PayoutStatus.SETTLED]: {},
  [PayoutStatus.FAILED]: {},
  [PayoutStatus.CANCELLED]: {},
};

const REFUSALS: Partial<Record<PayoutAction, (from: PayoutStatus) => string>> = {
  cancel: (from) => `Only a CREATED payout can be cancelled; this one is ${from}`,
  approve: (from) => `Only a payout held for review can be approved; this one is ${from}`,
  reject: (from) => `Only a payout held for review can be rejected; this one is ${from}`,
};

/** The status `action` leads to from `from`, or CONFLICT. */
export function payoutTransition(from: PayoutStatus, action: PayoutAction): PayoutStatus {
  return assertTransition(
    PAYOUT_TRANSITIONS,
    from,
    action,
    (state, act) => REFUSALS[act]?.(state) ?? `Cannot ${act} a payout that is ${state}`,
  );
}

/** The statuses from which `action` is allowed. */
export const statusesAllowing = (action: PayoutAction): PayoutStatus[] =>
  (Object.keys(PAYOUT_TRANSITIONS) as PayoutStatus[]).filter(
    (status) => PAYOUT_TRANSITIONS[status][action] !== undefined,
  );

/** Statuses in which the payout's debit stands reversed, or the money has left. */
export const TERMINAL_PAYOUT_STATUSES: readonly PayoutStatus[] = [
  PayoutStatus.SETTLED,
  PayoutStatus.FAILED,
  PayoutStatus.CANCELLED,
];

/** Where payouts live and how they move, for `moveRow` (one conditional UPDATE per move). */
export const PAYOUT_ROWS: RowMachine<Payout, PayoutStatus, PayoutAction> = rowMachine(PAYOUT_TRANSITIONS, {
  entity: Payout,
  table: 'payouts',
  statusType: 'payout_status',
  noun: 'Payout',
  transition: payoutTransition,
  allowing: statusesAllowing,
});
