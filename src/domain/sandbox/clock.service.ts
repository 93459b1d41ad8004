import { Mode } from '../shared/modes';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, notFound, validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { enqueueJob } from '../shared/jobs';
import { entityFromRow } from '../shared/rows';
import { ClockAdvanceStatus, SandboxClockAdvance } from './sandbox-clock.entity';
import { advanceSliceJob } from './sandbox.job-names';
import { advanceStatusesAllowing, clockAllows, clockStatusOf, clockTransition } from './clock.states';
import { AdvanceWindow, ClockAdvancing, ClockSlice, DueWork } from './sandbox.events';
import { DomainEventBus } from '../shared/domain-events';

/** The longest single advance (one year and a day) and the furthest a clock may run ahead (ten years). */
export const MAX_ADVANCE_SECONDS = 366 * 86_400;
export const MAX_OFFSET_SECONDS = 3_653 * 86_400;
/**
 * The most payouts one advance may create (docs/sandbox.md, Test clock): counted before the clock
 * moves, refused above it. One advance runs at a time per business, so this is also the most
 * scheduled-payout work a business can have pending from its clock.
 */
export const MAX_ADVANCE_PAYOUTS = 1_000;
/** What one background slice of an advance does at most: payouts created (a run costs its payouts, at least 1) or collections expired. */
export const ADVANCE_SLICE_BUDGET = 50;

export interface ClockState {
  now: Date;
  offsetSeconds: number;
  /** The business's running advance, or its last one (null before the first). */
  advance: SandboxClockAdvance | null;
}

export interface AdvanceClockCommand {
  seconds: number;
}

/** The transaction-scoped advisory lock between an advance being asked for (exclusive) and a worker firing a test-mode run (shared). */
export const clockLockKey = (businessId: string) => `sandbox_clock:${businessId}`;

const thousands = (value: number) => value.toLocaleString('en-US');

/**
 * The sandbox's test clock: in test mode, "now" for a business is the wall clock plus its offset;
 * in live mode it is the wall clock, always. Every time-driven rule of the sandbox (the schedule
 * runner, collection expiry) reads its time here, so advancing the clock is the same as waiting.
 * An advance moves the clock in its request and fires what fell due in bounded background slices
 * (one job queue per business), reporting its progress on the clock.
 */
export class ClockService {
  constructor(private readonly bus: DomainEventBus) {}

  /** The business's clock: wall clock + offset in test mode, and its running or last advance. */
  async state(ctx: RequestContext): Promise<ClockState> {
    ctx.requireRole(...ALL_ROLES);
    ctx.requireSandbox();
    return this.stateOf(ctx, ctx.requireBusiness());
  }

  /** One advance of the context business's test clock; NOT_FOUND for another business's, and in live mode (advances are test mode's). */
  async advanceById(ctx: RequestContext, advanceId: string): Promise<SandboxClockAdvance> {
    ctx.requireRole(...ALL_ROLES);
    const [row]: Array<Record<string, unknown>> =
      ctx.livemode || !isUuid(advanceId)
        ? []
        : await ctx.em.query(`SELECT * FROM sandbox_clock_advances WHERE id = $1 AND business_id = $2`, [
            advanceId,
            ctx.requireBusiness(),
          ]);
    if (!row) throw notFound('Clock advance');
    return entityFromRow(ctx, SandboxClockAdvance, row);
  }

  /** "Now" for the context's business and mode (no permission needed: the runner and other services read it). */
  async now(ctx: RequestContext): Promise<Date> {
    if (ctx.livemode) return new Date();
    return new Date(Date.now() + (await this.offsetOf(ctx, ctx.requireBusiness())) * 1000);
  }

  /** The offset in seconds of a business's test clock (0 without one); live mode ignores it. */
  async offsetOf(ctx: RequestContext, businessId: string): Promise<number> {
    const [row]: Array<{ offset_seconds: number }> = await ctx.em.query(
      `SELECT offset_seconds FROM sandbox_clocks WHERE business_id = $1`,
      [businessId],
    );
    return row?.offset_seconds ?? 0;
  }

  /** Whether the business's test clock has an advance whose work is still being fired (workers leave its test-mode runs to it). */
  async isAdvancing(ctx: RequestContext, businessId: string): Promise<boolean> {
    const [row]: Array<{ running: boolean }> = await ctx.em.query(
      `SELECT EXISTS (SELECT 1 FROM sandbox_clock_advances WHERE business_id = $1 AND status = $2) AS running`,
      [businessId, ClockAdvanceStatus.RUNNING],
    );
    return row.running;
  }

  /**
   * Moves the business's test clock forward by `seconds` and answers at once with the advance: in
   * one transaction, what would fall due is counted (refused above MAX_ADVANCE_PAYOUTS, 422), the
   * offset moves, the advance is recorded and its first background slice enqueued. One advance runs
   * at a time per business (409 while one does). Test mode only (SANDBOX_ONLY in live).
   */
  async advance(ctx: RequestContext, command: AdvanceClockCommand): Promise<ClockState> {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    const businessId = ctx.requireBusiness();
    if (!Number.isSafeInteger(command.seconds) || command.seconds < 1 || command.seconds > MAX_ADVANCE_SECONDS) {
      throw validationError({ seconds: [`must be an integer from 1 to ${MAX_ADVANCE_SECONDS} (366 days)`] });
    }
    let running: SandboxClockAdvance | null = null;
    await inTransaction(ctx, async (tx) => {
      // Waits for a worker firing one of the business's test-mode runs right now (it holds the lock shared), and keeps new ones out until commit.
      await tx.em.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [clockLockKey(businessId)]);
      const latest = await this.latestAdvance(tx, businessId);
      const clock = clockStatusOf(latest);
      if (latest && !clockAllows(clock, 'advance')) {
        running = latest;
        throw new DomainError(
          ErrorCode.CONFLICT,
          `The test clock is still advancing (advance ${latest.id}: ${latest.runsFired} of ${latest.runsDue} runs fired); ` +
            'wait until GET /api/v1/business/sandbox/clock shows it completed, then advance again',
        );
      }
      const offsetSeconds = await this.offsetOf(tx, businessId);
      if (offsetSeconds + command.seconds > MAX_OFFSET_SECONDS) {
        throw validationError({
          seconds: [`would put the clock more than ${MAX_OFFSET_SECONDS / 86_400} days ahead of the wall clock`],
        });
      }
      const from = new Date(Date.now() + offsetSeconds * 1000);
      const until = new Date(from.getTime() + command.seconds * 1000);
      const advancing = new ClockAdvancing(until, MAX_ADVANCE_PAYOUTS);
      await this.bus.publish(tx, 'sandbox.clock-advancing', advancing);
      const due = advancing.due;
      if (due.stopBefore) throw this.overBound(due, from, command.seconds);
      await tx.em.query(
        `INSERT INTO sandbox_clocks (business_id, offset_seconds) VALUES ($1, $2)
         ON CONFLICT (business_id) DO UPDATE SET offset_seconds = sandbox_clocks.offset_seconds + EXCLUDED.offset_seconds, updated_at = now()`,
        [businessId, command.seconds],
      );
      // An advance with nothing due completes as it starts.
      const idle = due.runs === 0 && !due.other;
      const started = clockTransition(clock, 'advance');
      const [{ id }]: Array<{ id: string }> = await tx.em.query(
        `INSERT INTO sandbox_clock_advances (business_id, seconds, from_at, until_at, runs_due, payouts_due, status, completed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8 THEN now() END) RETURNING id`,
        [
          businessId,
          command.seconds,
          from,
          until,
          due.runs,
          due.payouts,
          idle ? clockTransition(started, 'complete') : started,
          idle,
        ],
      );
      if (!idle) {
        const job = advanceSliceJob({ advanceId: id, businessId });
        await enqueueJob(tx, job.task, job.payload, job.options);
      }
    }).catch(async (error: unknown) => {
      if (running) await this.requeue(ctx, running);
      throw error;
    });
    return this.stateOf(ctx, businessId);
  }

  /**
   * When an advance was refused because another runs: that one's next slice is queued again (its key
   * replaces a pending one), so an advance whose slice job gave up (out of attempts) resumes.
   * Outside the request's transaction and its Idempotency-Key claim: the refused request changed nothing.
   */
  private async requeue(ctx: RequestContext, running: SandboxClockAdvance): Promise<void> {
    const system = RequestContext.system(ctx.dataSource, 'sandbox-clock', running.businessId, Mode.TEST);
    await inTransaction(system, async (tx) => {
      const job = advanceSliceJob({ advanceId: running.id, businessId: running.businessId });
      await enqueueJob(tx, job.task, job.payload, job.options);
    });
  }

  /**
   * One background slice of an advance (the `advance_sandbox_clock` job): fires up to
   * ADVANCE_SLICE_BUDGET of the work that fell due, in order, then enqueues the next slice or marks
   * the advance completed. Safe to run again after a crash or twice at once: each run fires once
   * (the runner's guarantee) and is counted in its own transaction.
   */
  async runSlice(system: RequestContext, command: { advanceId: string; businessId: string }): Promise<void> {
    const owner = system.forBusiness(command.businessId, Mode.TEST);
    const [row]: Array<Record<string, unknown>> = await owner.em.query(
      `SELECT * FROM sandbox_clock_advances WHERE id = $1 AND business_id = $2`,
      [command.advanceId, command.businessId],
    );
    if (!row) return;
    const advance = entityFromRow(owner, SandboxClockAdvance, row);
    if (!clockAllows(advance.status, 'fire')) return;
    const window: AdvanceWindow = {
      id: advance.id,
      businessId: advance.businessId,
      until: advance.untilAt,
      countRun: async (tx) => {
        await tx.em.query(`UPDATE sandbox_clock_advances SET runs_fired = runs_fired + 1 WHERE id = $1`, [advance.id]);
      },
    };
    const slice = new ClockSlice(window, ADVANCE_SLICE_BUDGET);
    await this.bus.publish(owner, 'sandbox.clock-slice', slice);
    await inTransaction(owner, async (tx) => {
      if (!slice.done) {
        const job = advanceSliceJob({ advanceId: advance.id, businessId: advance.businessId });
        await enqueueJob(tx, job.task, job.payload, job.options);
      } else {
        await tx.em.query(
          `UPDATE sandbox_clock_advances SET status = $2, completed_at = now() WHERE id = $1 AND status = ANY($3::text[])`,
          [advance.id, clockTransition(advance.status, 'complete'), advanceStatusesAllowing('complete')],
        );
      }
    });
  }

  private async stateOf(ctx: RequestContext, businessId: string): Promise<ClockState> {
    const offsetSeconds = await this.offsetOf(ctx, businessId);
    return {
      now: new Date(Date.now() + offsetSeconds * 1000),
      offsetSeconds,
      advance: await this.latestAdvance(ctx, businessId),
    };
  }

  private async latestAdvance(ctx: RequestContext, businessId: string): Promise<SandboxClockAdvance | null> {
    const [row]: Array<Record<string, unknown>> = await ctx.em.query(
      `SELECT * FROM sandbox_clock_advances WHERE business_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`,
      [businessId],
    );
    return row ? entityFromRow(ctx, SandboxClockAdvance, row) : null;
  }

  /** 422: how much the advance would fire, the bound, and the largest advance that stays within it now. */
  private overBound(due: DueWork, from: Date, seconds: number): DomainError {
    const fits = Math.max(0, Math.ceil((due.stopBefore!.getTime() - from.getTime()) / 1000) - 1);
    const advice =
      fits >= 1
        ? `Advance in smaller steps: at most ${thousands(fits)} seconds from now stays within the limit, then advance again once it completes.`
        : 'More than that is already due: let the worker fire what is due (or pause or cancel schedules), then advance.';
    const message =
      `This advance of ${thousands(seconds)} seconds would fire ${thousands(due.runs)} scheduled-payout runs creating ${thousands(due.payouts)} payouts; ` +
      `one advance may create at most ${thousands(MAX_ADVANCE_PAYOUTS)} payouts. ${advice}`;
    return new DomainError(ErrorCode.UNPROCESSABLE, message, { seconds: [message] });
  }
}
