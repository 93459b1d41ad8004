import { Payout, PayoutStatus } from '../src/domain/payouts/payout.entities';
import { PAYOUT_ROWS, PAYOUT_TRANSITIONS, PayoutAction } from '../src/domain/payouts/payout.states';
import { COLLECTION_ROWS } from '../src/domain/collections/collection.states';
import { TREASURY_PAYOUT_ROWS } from '../src/domain/treasury/treasury-payout.states';
import { rowMachine } from '../src/domain/shared/row-transition';
import { TransitionTable, assertTransition } from '../src/domain/shared/states';

const machineOf = (transitions: TransitionTable<PayoutStatus, PayoutAction>) =>
  rowMachine(transitions, {
    entity: Payout,
    table: 'payouts',
    statusType: 'payout_status',
    noun: 'Payout',
    transition: (from, action) => assertTransition(transitions, from, action),
    allowing: (action) =>
      (Object.keys(transitions) as PayoutStatus[]).filter((status) => transitions[status][action] !== undefined),
  });

describe('row machines (moveRow moves every status allowing an action to one status, in one UPDATE)', () => {
  test('a machine whose action leads to two statuses is refused where it is declared, naming the action and both statuses', () => {
    const ambiguous: TransitionTable<PayoutStatus, PayoutAction> = {
      ...PAYOUT_TRANSITIONS,
      [PayoutStatus.PENDING_REVIEW]: {
        ...PAYOUT_TRANSITIONS[PayoutStatus.PENDING_REVIEW],
        fail: PayoutStatus.CANCELLED,
      },
    };
    expect(() => machineOf(ambiguous)).toThrow(
      'Payout: moveRow needs each action to lead to one status, but fail leads to FAILED and CANCELLED',
    );
  });

  test('every declared row machine has one status per action (their modules load)', () => {
    expect(machineOf(PAYOUT_TRANSITIONS).noun).toBe('Payout');
    expect([PAYOUT_ROWS.noun, TREASURY_PAYOUT_ROWS.noun, COLLECTION_ROWS.noun]).toEqual([
      'Payout',
      'Treasury payout',
      'Collection',
    ]);
  });
});
