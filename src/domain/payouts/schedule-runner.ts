import { ProviderRegistry } from '../../providers/registry';
import { EventService } from '../events/event.service';
import { TesseraPubSub } from '../events/pubsub';
import { PayoutScheduleChange, PayoutTopic } from './payouts.topics';
import { Mode } from '../shared/modes';
import { AdvanceWindow, ClockAdvancing, clockLockKey, ClockService, ClockSlice, DueWork } from '../sandbox';
import { RequestContext, inTransaction } from '../shared/context';
import { DomainError, ErrorCode } from '../shared/errors';
import { LedgerErrorCode } from '../ledger';
import { enqueueJob } from '../shared/jobs';
import { entityFromRow } from '../shared/rows';
import { BatchService } from './batch.service';
import { CadenceRule, occurrenceAfter } from './cadence';
import { BatchItem } from './payout.commands';
import { Payout } from './payout.entities';
import { PayoutService, PreparedPayout } from './payout.service';
import { scheduleRunJob } from './payouts.job-names';
import { withinLocalCap, withinUsdCap } from './schedule-caps';
import {
  FrozenPayout,
  PayoutSchedule,
  PayoutScheduleRun,
  SchedulePayloadKind,
  ScheduleRunFailure,
  ScheduleRunStatus,
  ScheduleStatus,
} from './schedule.entities';
import { scheduleAllows, scheduleTransition } from './schedule.states';
import { ScheduleEvent, scheduleEventData } from './schedules.events';

/** One wake-up fires at most this many runs of one schedule (a schedule far behind catches up over several). */
const MAX_CATCH_UP_RUNS = 1_000;

/** What one attempt to fire a schedule's due occurrence came to. */
type FireOutcome = 'fired' | 'not-due' | 'busy' | 'changed';

/** A run checked before anything is written: its prepared payouts, or why it fails. */
type RunPlan = { prepared: PreparedPayout[] } | { failure: ScheduleRunFailure };

/** The first row an UPDATE … RETURNING gave (the driver answers `[rows, count]` for an UPDATE). */
const firstReturned = (result: unknown): Record<string, unknown> => {
  const rows = (Array.isArray((result as unknown[])[0]) ? (result as unknown[][])[0] : result) as Array<
    Record<string, unknown>
  >;
  return rows[0];
};

export const ruleOf = (schedule: Pick<PayoutSchedule, 'cadence' | 'dayOfMonth' | 'startAt'>): CadenceRule => ({
  cadence: schedule.cadence,
  dayOfMonth: schedule.dayOfMonth,
  anchorAt: schedule.startAt,
});

const thawed = (payout: FrozenPayout): BatchItem => ({
  recipientId: payout.recipientId,
  amount: BigInt(payout.amountMinor),
  currency: payout.currency,
  reference: payout.reference,
});

/** Enqueues the schedule's wake-up at its nextRunAt on the wall clock (less its business's test-clock offset). */
export async function enqueueWakeUp(tx: RequestContext, clock: ClockService, schedule: PayoutSchedule): Promise<void> {
  const offset = schedule.livemode ? 0 : await clock.offsetOf(tx, schedule.businessId);
  const job = scheduleRunJob(
    { scheduleId: schedule.id, businessId: schedule.businessId, livemode: schedule.livemode },
    new Date(schedule.nextRunAt.getTime() - offset * 1000),
  );
  await enqueueJob(tx, job.task, job.payload, job.options);
}

/**
 * Tells subscribers, after commit, what one change of the schedule did: its status before, and the
 * properties it set (null for both: the change created it).
 */
export function announceSchedule(
  tx: RequestContext,
  pubSub: TesseraPubSub,
  schedule: PayoutSchedule,
  previousStatus: ScheduleStatus | null,
  changedFields: string[] | null,
): void {
  const change: PayoutScheduleChange = {
    businessId: schedule.businessId,
    livemode: schedule.livemode,
    scheduleId: schedule.id,
    previousStatus,
    changedFields,
  };
  tx.afterCommit(() => pubSub.publish(PayoutTopic.PAYOUT_SCHEDULE, change));
}

/**
 * The schedule runner (docs/schedules.md, The runner and its guarantee): fires each due occurrence
 * of a schedule exactly once, whatever the number of workers and wake-ups. It locks the schedule
 * row, re-checks that the occurrence it priced is still the schedule's next one, and writes the run
 * row (unique on schedule + due time), the run's payouts and the schedule's advance in one
 * transaction. Time is the business's clock: the wall clock, plus the test clock's offset in test
 * mode; a test clock's advance has what fell due fired by its background slices (fireForAdvance).
 */
export class ScheduleRunner {
  constructor(
    private readonly providers: ProviderRegistry,
    private readonly events: EventService,
    private readonly payouts: PayoutService,
    private readonly batches: BatchService,
    private readonly clock: ClockService,
    private readonly pubSub: TesseraPubSub,
  ) {}

  /** A test clock is advancing (`sandbox.clock-advancing`): counts the runs and payouts that would fall due. */
  async countDue(tx: RequestContext, advancing: ClockAdvancing): Promise<void> {
    advancing.count(await this.dueBy(tx, advancing.until, advancing.maxPayouts));
  }

  /** A slice of a test clock's advance (`sandbox.clock-slice`): fires the runs that fell due, within its budget. */
  async fireDue(ctx: RequestContext, slice: ClockSlice): Promise<void> {
    await slice.fire((budget) => this.fireForAdvance(ctx, slice.window, budget));
  }

  /**
   * The sweep (cron): fires every due occurrence of every ACTIVE schedule, each business at its
   * own clock. Safe with any number of workers: each occurrence is fired by exactly one of them.
   */
  async runDue(ctx: RequestContext, command: { limit: number }): Promise<number> {
    const due: Array<{ id: string; business_id: string; livemode: boolean }> = await ctx.em.query(
      `SELECT s.id, s.business_id, s.livemode FROM payout_schedules s
       LEFT JOIN sandbox_clocks c ON c.business_id = s.business_id AND NOT s.livemode
       WHERE s.status = 'ACTIVE' AND s.next_run_at <= $1::timestamptz + make_interval(secs => coalesce(c.offset_seconds, 0))
         AND (s.livemode OR NOT EXISTS (SELECT 1 FROM sandbox_clock_advances a WHERE a.business_id = s.business_id AND a.status = 'running'))
       ORDER BY s.next_run_at LIMIT $2`,
      [new Date(), command.limit],
    );
    let fired = 0;
    for (const row of due) {
      const owner = ctx.forBusiness(row.business_id, row.livemode ? Mode.LIVE : Mode.TEST);
      fired += await this.fireAllDue(owner, row.id);
    }
    return fired;
  }

  /** One schedule's wake-up (its job at nextRunAt): fires its due occurrences, in order. */
  async runSchedule(ctx: RequestContext, command: { scheduleId: string }): Promise<number> {
    return this.fireAllDue(ctx, command.scheduleId);
  }

  /**
   * What a test clock's advance to `until` would fire (counted before the clock moves): every
   * occurrence of the business's ACTIVE test-mode schedules due by then, and the payouts they
   * would create (a run's payload size, whether or not it will succeed). `stopBefore` when over
   * `maxPayouts`: the first occurrence over it; when the first due instant alone is over it (one
   * run per schedule, what the wall clock would fire together too), the next instant after it.
   */
  private async dueBy(tx: RequestContext, until: Date, maxPayouts: number): Promise<DueWork> {
    const rows: Array<Record<string, unknown>> = await tx.em.query(
      `SELECT * FROM payout_schedules WHERE business_id = $1 AND livemode = false AND status = 'ACTIVE' AND next_run_at <= $2`,
      [tx.requireBusiness(), until],
    );
    const occurrences: Array<{ at: number; payouts: number }> = [];
    for (const schedule of rows.map((row) => entityFromRow(tx, PayoutSchedule, row))) {
      // At most 53 per schedule: the shortest cadence is a week and one advance at most 366 days.
      for (
        let due: Date | null = schedule.nextRunAt;
        due && due <= until && (!schedule.endAt || due <= schedule.endAt);
        due = occurrenceAfter(ruleOf(schedule), due)
      ) {
        occurrences.push({ at: due.getTime(), payouts: schedule.itemCount });
      }
    }
    occurrences.sort((a, b) => a.at - b.at);
    const payouts = occurrences.reduce((sum, occurrence) => sum + occurrence.payouts, 0);
    const due: DueWork = { runs: occurrences.length, payouts, other: false, stopBefore: null };
    if (payouts <= maxPayouts) return due;
    const firstAt = occurrences[0].at;
    const atFirst = occurrences
      .filter((occurrence) => occurrence.at === firstAt)
      .reduce((sum, occurrence) => sum + occurrence.payouts, 0);
    if (atFirst > maxPayouts) {
      const later = occurrences.find((occurrence) => occurrence.at > firstAt);
      return { ...due, stopBefore: later ? new Date(later.at) : null };
    }
    let counted = 0;
    const over = occurrences.find((occurrence) => (counted += occurrence.payouts) > maxPayouts)!;
    return { ...due, stopBefore: new Date(over.at) };
  }

  /**
   * One slice of a test clock's advance: fires the business's test-mode runs due by the window's
   * end, in the order of their due times across schedules, until `budget` payouts (a run costs its
   * payload size, at least 1). Waits for a run a worker is firing at the same moment rather than
   * skipping it. Each run fired is counted on the advance in its own transaction.
   */
  private async fireForAdvance(
    ctx: RequestContext,
    window: AdvanceWindow,
    budget: number,
  ): Promise<{ used: number; done: boolean }> {
    const owner = RequestContext.system(ctx.dataSource, 'payout-schedules', window.businessId, Mode.TEST);
    let used = 0;
    for (let attempt = 0; used < budget && attempt < 4 * budget; attempt += 1) {
      const [next]: Array<{ id: string; item_count: number }> = await owner.em.query(
        `SELECT id, item_count FROM payout_schedules WHERE business_id = $1 AND livemode = false AND status = 'ACTIVE' AND next_run_at <= $2
         ORDER BY next_run_at, id LIMIT 1`,
        [window.businessId, window.until],
      );
      if (!next) return { used, done: true };
      if ((await this.fireOnce(owner, next.id, window)) === 'fired') used += Math.max(1, next.item_count);
    }
    return { used, done: false };
  }

  private async fireAllDue(ctx: RequestContext, scheduleId: string): Promise<number> {
    let fired = 0;
    for (let attempt = 0; attempt < MAX_CATCH_UP_RUNS; attempt += 1) {
      const outcome = await this.fireOnce(ctx, scheduleId, null);
      if (outcome === 'fired') fired += 1;
      else if (outcome !== 'changed') break;
    }
    return fired;
  }

  /**
   * Fires the schedule's next occurrence if it is due. The payload is priced and the caps checked
   * outside any transaction (the FX provider is called there); then, in one transaction, the row is
   * locked and must still be ACTIVE and unchanged (same nextRunAt, same updatedAt), the run row is
   * inserted (unique on schedule + due time), the payouts are written (in a savepoint, so a wallet
   * that cannot cover them fails the run without undoing the run row) and the schedule advances.
   */
  private async fireOnce(ctx: RequestContext, scheduleId: string, advance: AdvanceWindow | null): Promise<FireOutcome> {
    const schedule = await ctx
      .repo(PayoutSchedule)
      .findOne({ where: { id: scheduleId, businessId: ctx.requireBusiness(), livemode: ctx.livemode } });
    if (!schedule || !scheduleAllows(schedule.status, 'run')) return 'not-due';
    if (schedule.nextRunAt > (await this.clock.now(ctx))) return 'not-due';
    const plan = await this.plan(ctx, schedule);
    return inTransaction(ctx, async (tx) => {
      if (!advance && !ctx.livemode) {
        const [{ free }]: Array<{ free: boolean }> = await tx.em.query(
          `SELECT pg_try_advisory_xact_lock_shared(hashtext($1)) AS free`,
          [clockLockKey(schedule.businessId)],
        );
        // The business's test clock is advancing: the advance's slices fire its runs, in order.
        if (!free || (await this.clock.isAdvancing(tx, schedule.businessId))) return 'busy';
      }
      const rows: Array<Record<string, unknown>> = await tx.em.query(
        `SELECT * FROM payout_schedules WHERE id = $1 FOR UPDATE${advance ? '' : ' SKIP LOCKED'}`,
        [scheduleId],
      );
      if (rows.length === 0) return 'busy';
      const locked = entityFromRow(tx, PayoutSchedule, rows[0]);
      if (
        !scheduleAllows(locked.status, 'run') ||
        locked.nextRunAt.getTime() !== schedule.nextRunAt.getTime() ||
        locked.updatedAt.getTime() !== schedule.updatedAt.getTime()
      )
        return 'changed';
      const dueAt = locked.nextRunAt;
      const inserted: Array<{ id: string }> = await tx.em.query(
        `INSERT INTO payout_schedule_runs (business_id, livemode, schedule_id, due_at, fired_at, status, payout_ids)
         VALUES ($1, $2, $3, $4, now(), 'FAILED', '{}') ON CONFLICT (schedule_id, due_at) DO NOTHING RETURNING id`,
        [locked.businessId, locked.livemode, locked.id, dueAt],
      );
      if (inserted.length === 0) return 'changed';
      if (advance) await advance.countRun(tx);
      const result = 'failure' in plan ? { failure: plan.failure } : await this.writePayouts(tx, locked, plan.prepared);
      const updated: unknown = await tx.em.query(
        `UPDATE payout_schedule_runs SET status = $2, reason = $3, payout_ids = $4::uuid[], batch_id = $5 WHERE id = $1 RETURNING *`,
        'failure' in result
          ? [inserted[0].id, ScheduleRunStatus.FAILED, result.failure, [], null]
          : [
              inserted[0].id,
              ScheduleRunStatus.SUCCEEDED,
              null,
              result.payouts.map((payout) => payout.id),
              result.batchId,
            ],
      );
      await this.advance(tx, locked, entityFromRow(tx, PayoutScheduleRun, firstReturned(updated)));
      return 'fired';
    });
  }

  /** The run's payouts priced now and its caps checked at today's mid rate; or why it fails. */
  private async plan(ctx: RequestContext, schedule: PayoutSchedule): Promise<RunPlan> {
    const items = schedule.payload.map(thawed);
    let prepared: PreparedPayout[];
    try {
      prepared =
        schedule.payloadKind === SchedulePayloadKind.BATCH
          ? await this.batches.prepareItems(ctx, items)
          : [await this.payouts.prepare(ctx, { ...items[0], quoteId: null, metadata: null })];
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const recipientGone =
        error.code === ErrorCode.NOT_FOUND ||
        Object.entries(error.fieldErrors ?? {}).some(
          ([field, messages]) => field.endsWith('recipientId') || messages.some((text) => text.includes('wallet')),
        );
      return { failure: recipientGone ? ScheduleRunFailure.RECIPIENT_NOT_PAYABLE : ScheduleRunFailure.PAYOUT_REFUSED };
    }
    const currency = prepared[0].terms.currency;
    const total = prepared.reduce((sum, item) => sum + item.terms.amount, 0n);
    const rate = await this.providers.providerFor(ctx, 'fx').midRate(currency, 'USD');
    if (!withinUsdCap(total, currency, rate, schedule.maxRunAmountUsd))
      return { failure: ScheduleRunFailure.CAP_EXCEEDED };
    for (const cap of schedule.maxRunLocalCaps ?? []) {
      const sent = prepared
        .filter((item) => item.terms.destinationCurrency === cap.currency)
        .reduce((sum, item) => sum + item.terms.dstAmount, 0n);
      if (!withinLocalCap(sent, cap.currency, cap.amount)) return { failure: ScheduleRunFailure.CAP_EXCEEDED };
    }
    return { prepared };
  }

  /**
   * The run's payouts through the payouts domain (debit, events, dispatch), in a savepoint. Their
   * after-commit announcements are held apart and passed on only when the savepoint is kept, so a
   * run refused for funds announces nothing that was rolled back.
   */
  private async writePayouts(
    tx: RequestContext,
    schedule: PayoutSchedule,
    prepared: PreparedPayout[],
  ): Promise<{ payouts: Payout[]; batchId: string | null } | { failure: ScheduleRunFailure }> {
    const held = new RequestContext(tx.dataSource, tx.actor, tx.businessId, tx.mode);
    const inner = held.withManager(tx.em);
    await tx.em.query('SAVEPOINT schedule_run');
    try {
      const written =
        schedule.payloadKind === SchedulePayloadKind.BATCH
          ? await this.batches
              .write(inner, schedule.name, prepared)
              .then(({ batch, payouts }) => ({ payouts, batchId: batch.id }))
          : { payouts: [await this.payouts.write(inner, prepared[0], null)], batchId: null };
      await tx.em.query('RELEASE SAVEPOINT schedule_run');
      tx.afterCommit(() => held.runAfterCommitHooks());
      return written;
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== LedgerErrorCode.INSUFFICIENT_FUNDS) throw error;
      await tx.em.query('ROLLBACK TO SAVEPOINT schedule_run');
      return { failure: ScheduleRunFailure.INSUFFICIENT_FUNDS };
    }
  }

  /** After a run: counted, and moved to its next occurrence, or COMPLETED (ONCE, or the next would pass endAt). */
  private async advance(tx: RequestContext, schedule: PayoutSchedule, run: PayoutScheduleRun): Promise<void> {
    const next = occurrenceAfter(ruleOf(schedule), run.dueAt);
    const completes = next === null || (schedule.endAt !== null && next > schedule.endAt);
    const status = completes ? scheduleTransition(schedule.status, 'complete') : schedule.status;
    const advanced: unknown = await tx.em.query(
      `UPDATE payout_schedules SET run_count = run_count + 1, last_run_at = $2, next_run_at = $3, status = $4, updated_at = now() WHERE id = $1 RETURNING *`,
      [schedule.id, run.dueAt, completes ? schedule.nextRunAt : next, status],
    );
    const saved = entityFromRow(tx, PayoutSchedule, firstReturned(advanced));
    const event = run.status === ScheduleRunStatus.SUCCEEDED ? ScheduleEvent.RUN_SUCCEEDED : ScheduleEvent.RUN_FAILED;
    await this.events.record(tx, event, scheduleEventData(saved, run));
    if (completes) await this.events.record(tx, ScheduleEvent.COMPLETED, scheduleEventData(saved));
    else await enqueueWakeUp(tx, this.clock, saved);
    const changed = [
      'runCount',
      'lastRunAt',
      ...(saved.nextRunAt.getTime() !== schedule.nextRunAt.getTime() ? ['nextRunAt'] : []),
      ...(completes ? ['status'] : []),
    ];
    announceSchedule(tx, this.pubSub, saved, schedule.status, changed);
  }
}
