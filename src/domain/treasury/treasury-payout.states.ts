import { RowMachine, rowMachine } from '../shared/row-transition';
import { TransitionTable, assertTransition } from '../shared/states';
import { TreasuryPayout, TreasuryPayoutStatus } from './treasury.entities';

/**
 * What can happen to a treasury payout. `dispatch`: handed to the treasury rail (the dispatch job);
 * `complete` / `fail`: the rail's report; `cancel`: the partner takes it back before dispatch.
 */
export type TreasuryPayoutAction = 'dispatch' | 'complete' | 'fail' | 'cancel';

const { PENDING, PROCESSING, COMPLETED, FAILED, CANCELLED } = TreasuryPayoutStatus;

/** Every allowed transition (design section 10); anything else is a 409 CONFLICT that changes nothing. */
export const TREASURY_PAYOUT_TRANSITIONS: TransitionTable<TreasuryPayoutStatus, TreasuryPayoutAction> = {
  [PENDING]: { dispatch: PROCESSING, cancel: CANCELLED },
  [PROCESSING]: { complete: COMPLETED, fail: FAILED },
  [COMPLETED]: {},
  [FAILED]: {},
  [CANCELLED]: {},
};

export function treasuryPayoutTransition(
  from: TreasuryPayoutStatus,
  action: TreasuryPayoutAction,
): TreasuryPayoutStatus {
  return assertTransition(TREASURY_PAYOUT_TRANSITIONS, from, action, (state, act) =>
    act === 'cancel'
      ? `Only a PENDING treasury payout can be cancelled; this one is ${state}`
      : `Cannot ${act} a treasury payout that is ${state}`,
  );
}

/** The statuses from which `action` is allowed (one each in this table). */
export const statusesAllowing = (action: TreasuryPayoutAction): TreasuryPayoutStatus[] =>
  (Object.keys(TREASURY_PAYOUT_TRANSITIONS) as TreasuryPayoutStatus[]).filter(
    (status) => TREASURY_PAYOUT_TRANSITIONS[status][action] !== undefined,
  );

export const TERMINAL_TREASURY_PAYOUT_STATUSES: readonly TreasuryPayoutStatus[] = [COMPLETED, FAILED, CANCELLED];

/** Where treasury payouts live and how they move, for `moveRow` (one conditional UPDATE per move). */
export const TREASURY_PAYOUT_ROWS: RowMachine<TreasuryPayout, TreasuryPayoutStatus, TreasuryPayoutAction> = rowMachine(
  TREASURY_PAYOUT_TRANSITIONS,
  {
    entity: TreasuryPayout,
    table: 'treasury_payouts',
    statusType: 'treasury_payout_status',
    noun: 'Treasury payout',
    transition: treasuryPayoutTransition,
    allowing: statusesAllowing,
  },
);
