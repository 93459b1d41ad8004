import { EntityTarget } from 'typeorm';
import { RequestContext, inTransaction } from './context';
import { DomainError, ErrorCode, notFound } from './errors';
import { isUuid } from './ids';
import { JobRequest, enqueueJob, liveJobWithKey } from './jobs';
import { TransitionTable } from './states';
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
 * Declares an aggregate's row machine from its transition table, and refuses (throws, at module
 * load) a table where an action leads to more than one status: `moveRow` moves every status that
 * allows an action to one status, in one UPDATE, so it has to be the only one.
 */
export function rowMachine<E extends MutableTenantEntity & { status: S }, S extends string, A extends string>(
  transitions: TransitionTable<S, A>,
  machine: RowMachine<E, S, A>,
): RowMachine<E, S, A> {
  const targets = new Map<A, Set<S>>();
  for (const moves of Object.values<Partial<Record<A, S>>>(transitions)) {
    for (const [action, to] of Object.entries(moves) as Array<[A, S]>)
      targets.set(action, (targets.get(action) ?? new Set<S>()).add(to));
  }
  const ambiguous = [...targets]
    .filter(([, to]) => to.size > 1)
    .map(([action, to]) => `${action} leads to ${[...to].join(' and ')}`);
  if (ambiguous.length > 0) {
    throw new Error(`${machine.noun}: moveRow needs each action to lead to one status, but ${ambiguous.join('; ')}`);
  }
  return machine;
}

/** The one status `action` leads to (as `rowMachine` asserts): a row found there already made the move. */
export const statusAfter = <E extends MutableTenantEntity & { status: S }, S extends string, A extends string>(
  machine: RowMachine<E, S, A>,
  action: A,
): S => machine.transition(machine.allowing(action)[0], action);

/**
 * Moves one of the context's rows by `action` in one conditional `UPDATE … WHERE status = ANY(…)
 * RETURNING *`: applied only when its status allows the action at that instant, so concurrent
 * moves (a cancel racing the dispatch, a rail's report delivered three times at once) change it
 * exactly once, without a locking read first. Null when the row already is where the action leads
 * (a repeat: nothing to do); CONFLICT when it is elsewhere; NOT_FOUND when it is not the
 * context's. `changes` maps column names (the caller's own, never input) to their new values.
 */
export async function moveRow<E extends MutableTenantEntity & { status: S }, S extends string, A extends string>(
  tx: RequestContext,
  machine: RowMachine<E, S, A>,
  id: string,
  action: A,
  changes: Record<string, unknown> = {},
): Promise<E | null> {
  if (!isUuid(id)) throw notFound(machine.noun);
  const from = machine.allowing(action);
  const to = statusAfter(machine, action);
  const columns = Object.keys(changes);
  const assignments = columns.map((column, index) => `, ${column} = $${index + 5}`).join('');
  const result = await tx.em.query<unknown[]>(
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
async function claimForRail<E extends RailRow<S>, S extends string, A extends string>(
  ctx: RequestContext,
  machine: RowMachine<E, S, A>,
  id: string,
  action: A,
  changes: Record<string, unknown>,
  announce: (tx: RequestContext, row: E) => void,
): Promise<E | null> {
  const claimedStatus = statusAfter(machine, action);
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

/** What a rail answers when it accepts a row: its reference, and the report it will make later (its callback), if any. */
export interface RailAccepted<O> {
  providerRef: string;
  callback: { outcome: O; afterMs: number } | null;
}

/** What a dispatch does after its claim: the rail's submission, the job of its later report, and the area's own record of the acceptance. */
export interface RailDispatch<E, O> {
  /** Hands the claimed row to the rail, outside any transaction, under the row's id. */
  submit: (row: E) => Promise<RailAccepted<O>>;
  /** The job that applies the rail's later report `outcome` after `afterMs` (keyed per row: one pending at most). */
  callbackJobOf: (row: E, outcome: O, afterMs: number) => JobRequest;
  /** Runs in the transaction that records the reference, after the callback job (an area's event). */
  accepted?: (tx: RequestContext, row: E) => Promise<void>;
}

/**
 * A dispatch job: claims the row by `action` (`claimForRail`), submits it outside any transaction,
 * then, in one transaction, records the rail's reference (`UPDATE … WHERE provider_ref IS NULL`, so
 * a retry that finds it recorded changes nothing), enqueues the rail's report when it will come
 * later, and runs `accepted`. Answers the row as it then reads; null when there was nothing to send
 * or the reference was already recorded.
 */
export async function dispatchToRail<E extends RailRow<S>, S extends string, A extends string, O>(
  ctx: RequestContext,
  machine: RowMachine<E, S, A>,
  id: string,
  action: A,
  changes: Record<string, unknown>,
  announce: (tx: RequestContext, row: E) => void,
  rail: RailDispatch<E, O>,
): Promise<E | null> {
  const claimed = await claimForRail(ctx, machine, id, action, changes, announce);
  if (!claimed) return null;
  const acceptance = await rail.submit(claimed);
  return inTransaction(ctx, async (tx) => {
    const result = await tx.em.query<unknown[]>(
      `UPDATE ${machine.table} SET provider_ref = $2, updated_at = now() WHERE id = $1 AND provider_ref IS NULL RETURNING *`,
      [id, acceptance.providerRef],
    );
    const rows = (Array.isArray(result[0]) ? result[0] : result) as Array<Record<string, unknown>>;
    if (rows.length === 0) return null;
    const submitted = entityFromRow(tx, machine.entity, rows[0]);
    if (acceptance.callback) {
      const job = rail.callbackJobOf(submitted, acceptance.callback.outcome, acceptance.callback.afterMs);
      await enqueueJob(tx, job.task, job.payload, job.options);
    }
    await rail.accepted?.(tx, submitted);
    return submitted;
  });
}

/** A dispatch left stalled: a claimed row the rail has no reference for, and no job that will send it again. */
export interface StalledDispatch {
  id: string;
  businessId: string;
  livemode: boolean;
}

/**
 * The rows `action` claimed for the rail (`claimForRail`) more than `olderThanSeconds` ago (by the
 * `claimedAtColumn` the claim set) that still have no rail reference and whose dispatch job
 * (`jobKeyOf` of the row's id) is gone or has used its last attempt without being locked: their
 * amount is in flight, they can no longer be cancelled, and nothing would send them again. At most
 * `limit`, oldest first. A job still waiting, retrying or running is left to finish.
 */
async function stalledDispatches<E extends RailRow<S>, S extends string, A extends string>(
  ctx: RequestContext,
  machine: RowMachine<E, S, A>,
  action: A,
  claimedAtColumn: string,
  jobKeyPrefix: string,
  olderThanSeconds: number,
  limit: number,
): Promise<StalledDispatch[]> {
  const claimedStatus = statusAfter(machine, action);
  const rows: Array<{ id: string; business_id: string; livemode: boolean }> = await ctx.em.query(
    `SELECT row.id, row.business_id, row.livemode FROM "${machine.table}" row
      WHERE row.status = $1::"${machine.statusType}" AND row.provider_ref IS NULL
        AND row."${claimedAtColumn}" < now() - make_interval(secs => $2)
        AND NOT ${liveJobWithKey('$3 || row.id')}
      ORDER BY row."${claimedAtColumn}" LIMIT $4`,
    [claimedStatus, olderThanSeconds, jobKeyPrefix, limit],
  );
  return rows.map((row) => ({ id: row.id, businessId: row.business_id, livemode: row.livemode }));
}

/** How long a claim may go without the rail's reference before a sweep looks at it (its dispatch job retries meanwhile). */
export const STALLED_DISPATCH_AFTER_SECONDS = 15 * 60;

/**
 * Sends again the stalled dispatches (`stalledDispatches`): a new dispatch job for each, in one
 * transaction, under the same job key (graphile-worker's `add_job` replaces an exhausted job and
 * counts its attempts from zero). Safe however often it runs: the dispatch finds the row claimed
 * without a reference and submits it under the same id, which the rail dedupes on, so a row the rail
 * took before the failure is not sent twice. Answers the rows sent again.
 */
export async function redispatchStalled<E extends RailRow<S>, S extends string, A extends string>(
  ctx: RequestContext,
  machine: RowMachine<E, S, A>,
  action: A,
  claimedAtColumn: string,
  /** The row's dispatch job, keyed by a prefix and then the row's id (as `dispatchJob` keys it). */
  dispatchJobOf: (row: StalledDispatch) => JobRequest,
  { olderThanSeconds = STALLED_DISPATCH_AFTER_SECONDS, limit = 100 } = {},
): Promise<StalledDispatch[]> {
  const jobKeyPrefix = dispatchJobOf({ id: '', businessId: '', livemode: false }).options?.jobKey;
  if (jobKeyPrefix === undefined) throw new Error('A dispatch job needs its key: the sweep finds the job by it');
  const stalled = await stalledDispatches(ctx, machine, action, claimedAtColumn, jobKeyPrefix, olderThanSeconds, limit);
  if (stalled.length > 0) {
    await inTransaction(ctx, async (tx) => {
      for (const row of stalled) {
        const job = dispatchJobOf(row);
        await enqueueJob(tx, job.task, job.payload, job.options);
      }
    });
  }
  return stalled;
}

/** One row of a batch move: the row, its action, and its own values of the changed columns. */
export interface RowMove<A extends string> {
  id: string;
  action: A;
  changes: Record<string, unknown>;
}

/**
 * `moveRow` for a batch of rows a system job holds, of any business (a delivery pump's attempts):
 * every row moved by its own action, with its own changes, in one `UPDATE … FROM unnest(…)`. A
 * row changes only when its status allows its action at that instant; one that does not (moved
 * elsewhere first), or is gone, is left as it is and answered null. `columnTypes` names the
 * changed columns (the caller's own, never input) with their SQL types: the values travel as one
 * array per column, so the statement's text is the same whatever the number of rows. Answers, in
 * the order of `moves`, the id and the `returning` columns of each moved row.
 */
export async function moveRows<E extends MutableTenantEntity & { status: S }, S extends string, A extends string>(
  ctx: RequestContext,
  machine: RowMachine<E, S, A>,
  moves: ReadonlyArray<RowMove<A>>,
  columnTypes: Record<string, string>,
  returning: readonly string[],
): Promise<Array<Record<string, unknown> | null>> {
  const columns = Object.keys(columnTypes);
  const actions = [...new Set(moves.map((move) => move.action))];
  // "<from> <action>" for every status that allows each action: the guard reads the row's status as it is when updated.
  const allowed = actions.flatMap((action) => machine.allowing(action).map((from) => `${from} ${action}`));
  const [rows]: [Array<Record<string, unknown>>, number] = await ctx.em.query(
    `UPDATE "${machine.table}" AS "row" SET status = move.status${columns.map((column) => `, ${column} = move.${column}`).join('')},
        updated_at = now()
       FROM unnest($1::uuid[], $2::text[], $3::"${machine.statusType}"[]${columns.map((column, index) => `, $${index + 5}::${columnTypes[column]}[]`).join('')})
         AS move(id, action, status${columns.map((column) => `, ${column}`).join('')})
      WHERE "row".id = move.id AND ("row".status::text || ' ' || move.action) = ANY($4::text[])
      RETURNING "row".id${returning.map((column) => `, "row".${column}`).join('')}`,
    [
      moves.map((move) => move.id),
      moves.map((move) => move.action),
      moves.map((move) => machine.transition(machine.allowing(move.action)[0], move.action)),
      allowed,
      ...columns.map((column) => moves.map((move) => move.changes[column] ?? null)),
    ],
  );
  const byId = new Map(rows.map((row) => [row.id as string, row]));
  return moves.map((move) => byId.get(move.id) ?? null);
}
