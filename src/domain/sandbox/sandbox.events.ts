import { RequestContext } from '../shared/context';

/** What an advance to `until` would fire, counted before the clock moves. */
export interface DueWork {
  runs: number;
  payouts: number;
  /** Whether anything else falls due (collections to expire): work the bounds do not count. */
  other: boolean;
  /**
   * Set when `payouts` passes the bound given: the due time the advance must stop before (the
   * first occurrence over the bound; when one instant alone is over it, the next instant after it).
   */
  stopBefore: Date | null;
}

/** The advance a slice works for: its id, its business and the time on the business's clock it fires up to. */
export interface AdvanceWindow {
  id: string;
  businessId: string;
  until: Date;
  /** Counts a run the advance fired, in the transaction that fired it (so the count is exact after any crash). */
  countRun(tx: RequestContext): Promise<void>;
}

/**
 * A test clock is about to advance to `until` (`sandbox.clock-advancing`, in the advance's
 * transaction): each area with time-driven work (scheduled-payout runs, expiries) counts what
 * would fall due by then, against `maxPayouts`.
 */
export class ClockAdvancing {
  readonly due: DueWork = { runs: 0, payouts: 0, other: false, stopBefore: null };

  constructor(
    readonly until: Date,
    readonly maxPayouts: number,
  ) {}

  count(due: DueWork): void {
    this.due.runs += due.runs;
    this.due.payouts += due.payouts;
    this.due.other ||= due.other;
    if (due.stopBefore && (!this.due.stopBefore || due.stopBefore < this.due.stopBefore))
      this.due.stopBefore = due.stopBefore;
  }
}

/**
 * One background slice of an advance (`sandbox.clock-slice`, outside any transaction: each fired
 * item commits on its own): the areas fire what fell due by the window's end in subscription
 * order, sharing the slice's budget; once one leaves work undone, the rest wait for the next slice.
 */
export class ClockSlice {
  /** False once an area left work undone: the slice ends there and another is queued. */
  done = true;

  constructor(
    readonly window: AdvanceWindow,
    private budget: number,
  ) {}

  /** Runs one area's share: `work` fires up to `budget` items, in order, and says whether none is left. */
  async fire(work: (budget: number) => Promise<{ used: number; done: boolean }>): Promise<void> {
    if (!this.done) return;
    const slice = await work(this.budget);
    this.budget -= slice.used;
    this.done = slice.done;
  }
}

declare module '../shared/domain-events' {
  interface DomainEvents {
    'sandbox.clock-advancing': ClockAdvancing;
    'sandbox.clock-slice': ClockSlice;
  }
}
