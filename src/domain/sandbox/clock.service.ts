import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { validationError } from '../shared/errors';
import { SandboxClock } from './sandbox-clock.entity';

/** The longest single advance (one year and a day) and the furthest a clock may run ahead (ten years). */
export const MAX_ADVANCE_SECONDS = 366 * 86_400;
export const MAX_OFFSET_SECONDS = 3_653 * 86_400;

export interface ClockState {
  now: Date;
  offsetSeconds: number;
}

export interface AdvanceClockCommand {
  seconds: number;
}

/**
 * Work that falls due when a test clock moves (scheduled payouts now, collection expiry later):
 * called after the new offset committed, in registration order, before the advance answers.
 */
export type ClockListener = (ctx: RequestContext, now: Date) => Promise<void>;

/**
 * The sandbox's test clock: in test mode, "now" for a business is the wall clock plus its offset;
 * in live mode it is the wall clock, always. Every time-driven rule of the sandbox (the schedule
 * runner, collection expiry) reads its time here, so advancing the clock is the same as waiting.
 */
export class ClockService {
  private readonly listeners: ClockListener[] = [];

  /** Registers work to run when a clock advances. */
  onAdvance(listener: ClockListener): void {
    this.listeners.push(listener);
  }

  /** The business's clock: wall clock + offset in test mode. */
  async state(ctx: RequestContext): Promise<ClockState> {
    ctx.requireRole(...ALL_ROLES);
    ctx.requireSandbox();
    const offsetSeconds = await this.offsetOf(ctx, ctx.requireBusiness());
    return { now: new Date(Date.now() + offsetSeconds * 1000), offsetSeconds };
  }

  /** "Now" for the context's business and mode (no permission needed: the runner and other services read it). */
  async now(ctx: RequestContext): Promise<Date> {
    if (ctx.livemode) return new Date();
    return new Date(Date.now() + (await this.offsetOf(ctx, ctx.requireBusiness())) * 1000);
  }

  /** The offset in seconds of a business's test clock (0 without one); live mode ignores it. */
  async offsetOf(ctx: RequestContext, businessId: string): Promise<number> {
    const [row]: Array<{ offset_seconds: number }> = await ctx.em.query(`SELECT offset_seconds FROM sandbox_clocks WHERE business_id = $1`, [businessId]);
    return row?.offset_seconds ?? 0;
  }

  /**
   * Moves the business's test clock forward by `seconds`, then runs everything that fell due in
   * between (each listener, in order) before answering. Test mode only (SANDBOX_ONLY in live).
   */
  async advance(ctx: RequestContext, command: AdvanceClockCommand): Promise<ClockState> {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    const businessId = ctx.requireBusiness();
    if (!Number.isSafeInteger(command.seconds) || command.seconds < 1 || command.seconds > MAX_ADVANCE_SECONDS) {
      throw validationError({ seconds: [`must be an integer from 1 to ${MAX_ADVANCE_SECONDS} (366 days)`] });
    }
    const offsetSeconds = await inTransaction(ctx, async (tx) => {
      const rows: Array<{ offset_seconds: number }> = await tx.em.query(
        `INSERT INTO sandbox_clocks (business_id, offset_seconds) VALUES ($1, $2)
         ON CONFLICT (business_id) DO UPDATE SET offset_seconds = sandbox_clocks.offset_seconds + EXCLUDED.offset_seconds, updated_at = now()
         RETURNING offset_seconds`,
        [businessId, command.seconds],
      );
      if (rows[0].offset_seconds > MAX_OFFSET_SECONDS) {
        throw validationError({ seconds: [`would put the clock more than ${MAX_OFFSET_SECONDS / 86_400} days ahead of the wall clock`] });
      }
      return rows[0].offset_seconds;
    });
    const now = new Date(Date.now() + offsetSeconds * 1000);
    for (const listener of this.listeners) await listener(ctx, now);
    return { now: await this.now(ctx), offsetSeconds };
  }
}
