import { RowMachine, rowMachine } from '../shared/row-transition';
import { TransitionTable, assertTransition } from '../shared/states';
import { Collection, CollectionStatus } from './collection.entities';

/**
 * What can happen to a collection. `receive`: the rail detected the payer's funds; `settle`: the
 * rail settled them (the wallet is credited); `fail`: the rail reports a terminal failure (amount
 * mismatch, rejection); `expire`: the instructions ran out unpaid (the expiry job or the test clock).
 */
export type CollectionAction = 'receive' | 'settle' | 'fail' | 'expire';

const { PENDING, PROCESSING, COMPLETED, FAILED, EXPIRED } = CollectionStatus;

/**
 * Every allowed transition (interface document, Collection status). A rail may report settlement
 * or failure without reporting the funds first, so both also leave `pending`; only an unpaid
 * (pending) collection expires: funds already detected are never expired away.
 */
export const COLLECTION_TRANSITIONS: TransitionTable<CollectionStatus, CollectionAction> = {
  [PENDING]: { receive: PROCESSING, settle: COMPLETED, fail: FAILED, expire: EXPIRED },
  [PROCESSING]: { settle: COMPLETED, fail: FAILED },
  [COMPLETED]: {},
  [FAILED]: {},
  [EXPIRED]: {},
};

/** The status `action` leads to from `from`, or CONFLICT. */
export function collectionTransition(from: CollectionStatus, action: CollectionAction): CollectionStatus {
  return assertTransition(
    COLLECTION_TRANSITIONS,
    from,
    action,
    (state, act) => `Cannot ${act} a collection that is ${state}`,
  );
}

/** Whether the table allows `action` from `from` (a report or job that finds the collection moved on changes nothing). */
export const collectionAllows = (from: CollectionStatus, action: CollectionAction): boolean =>
  COLLECTION_TRANSITIONS[from][action] !== undefined;

/**
 * The sandbox's payment of a collection settles it, so it is refused (CONFLICT) where the table
 * allows no settlement; except a COMPLETED one, where settlement leads: paying it again repeats
 * the rail's reports, which change nothing.
 */
export function assertPayable(from: CollectionStatus): void {
  if (from === COMPLETED) return;
  assertTransition(COLLECTION_TRANSITIONS, from, 'settle', (state) => `Cannot pay a collection that is ${state}`);
}

/** The statuses from which `action` is allowed. */
export const statusesAllowing = (action: CollectionAction): CollectionStatus[] =>
  (Object.keys(COLLECTION_TRANSITIONS) as CollectionStatus[]).filter(
    (status) => COLLECTION_TRANSITIONS[status][action] !== undefined,
  );

export const TERMINAL_COLLECTION_STATUSES: readonly CollectionStatus[] = [COMPLETED, FAILED, EXPIRED];

/** The failure reason of a collection paid with another amount than its own (nothing is credited). */
export const AMOUNT_MISMATCH = 'amount_mismatch';

/** Where collections live and how they move, for `moveRow` (one conditional UPDATE per move). */
export const COLLECTION_ROWS: RowMachine<Collection, CollectionStatus, CollectionAction> = rowMachine(
  COLLECTION_TRANSITIONS,
  {
    entity: Collection,
    table: 'collections',
    statusType: 'collection_status',
    noun: 'Collection',
    transition: collectionTransition,
    allowing: statusesAllowing,
  },
);
