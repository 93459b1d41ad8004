import { EntityTarget } from 'typeorm';
import { RequestContext, inTransaction } from './context';
import { DomainError, ErrorCode, notFound } from './errors';
import { isUuid } from './ids';
import { entityFromRow } from './rows';
import { MutableTenantEntity, findOwned } from './tenancy';

/** What `moveRow` needs to know of an aggregate: where its rows live and its state machine. */
export interface RowMachine<E extends MutableTenantEntity & { status: S }, S extends string, A extends string> {
  entity: EntityTarget<E>;
  /** The table and the PostgreSQL enum type of its `status` column. */
  table: string;
  statusType: string;
  /** The aggregate's name in a NOT_FOUND message ("Payout"). */
  noun: string;
  /** The status `action` leads to from `from`, or CONFLICT (`<aggregate>.states.ts`). */
  transition: (from: S, action: A) => S;
  /** The statuses from which `action` is allowed; each leads to the same status. */
  allowing: (action: A) => S[];
}

/**
 * Moves one of the context's rows by `action` in one conditional `UPDATE … WHERE status = ANY(…)
 * RETURNING *`: applied only when its status allows the action at that instant, so concurrent
 * moves (a cancel racing the dispatch, a rail's report delivered three times at once) change it
 * exactly once, without a locking read first. Null when the row already is where the action leads
 * (a repeat: nothing to do); CONFLICT when it is elsewhere; NOT_FOUND when it is not the
 * context's. `changes` maps column names (the caller's own, never input) to their new values.
 */
export async function moveRow<E extends MutableTenantEntity & { status: S }, S extends string, A extends string>(
  tx: RequestContext, machine: RowMachine<E, S, A>, id: string, action: A, changes: Record<string, unknown> = {},
): Promise<E | null> {
  if (!isUuid(id)) throw notFound(machine.noun);
  const from = machine.allowing(action);
  const to = machine.transition(from[0], action);
  const columns = Object.keys(changes);
  const assignments = columns.map((column, index) => `, ${column} = $${index + 5}`).join('');
  const result = await tx.em.query(
    `UPDATE ${machine.table} SET status = $4, updated_at = now()${assignments}
     WHERE id = $1 AND business_id = $2 AND livemode = $3 AND status = ANY($${columns.length + 5}::${machine.statusType}[]) RETURNING *`,
    [id, tx.requireBusiness(), tx.livemode, to, ...columns.map((column) => changes[column]), from],
  );
  const rows = (Array.isArray(result[0]) ? result[0] : result) as Array<Record<string, unknown>>;
  if (rows.length > 0) return entityFromRow(tx, machine.entity, rows[0]);
  const current = await findOwned(tx, machine.entity, id, machine.noun);
  if (current.status === to) return null;
  machine.transition(current.status, action);
  throw new Error(`unreachable: ${current.status} allows ${action}`);
}

/** A row a rail takes over: its status and the rail's reference once the rail has accepted it. */
type RailRow<S extends string> = MutableTenantEntity & { status: S; providerRef: string | null };

/**
 * The first half of a dispatch job: claims the row by `action` (committed before the rail hears of
 * it, so a cancel can no longer win and a retry finds it claimed; `announce` runs in the claim's
 * transaction) and answers it as it now reads, ready to submit. Null when there is nothing to send:
 * moved elsewhere first (a cancel that committed first wins), or already accepted by the rail
 * (`providerRef` set). A crash after the claim leaves it claimed without a reference, so the retry
 * submits it again under the same id, which is the rail's idempotency reference.
 */
export async function claimForRail<E extends RailRow<S>, S extends string, A extends string>(
  ctx: RequestContext, machine: RowMachine<E, S, A>, id: string, action: A, changes: Record<string, unknown>,
  announce: (tx: RequestContext, row: E) => void,
): Promise<E | null> {
  const claimedStatus = machine.transition(machine.allowing(action)[0], action);
  const current = await findOwned(ctx, machine.entity, id, machine.noun);
  if (machine.allowing(action).includes(current.status)) {
    const claimed = await inTransaction(ctx, async (tx) => {
      const moved = await moveRow(tx, machine, id, action, changes);
      if (moved) announce(tx, moved);
      return moved;
    }).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === ErrorCode.CONFLICT) return null;
      throw error;
    });
    if (!claimed) return null;
  } else if (current.status !== claimedStatus || current.providerRef) return null;
  const row = await findOwned(ctx, machine.entity, id, machine.noun);
  return row.status === claimedStatus && !row.providerRef ? row : null;
}
