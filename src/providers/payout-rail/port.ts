/** Where a payout goes, as the rail needs it (full account details; never logged). */
export type PayoutDestination =
  | {
      rail: 'LOCAL_BANK';
      country: string;
      currency: string;
      bankCode: string;
      bankName: string;
      accountNumber: string;
      accountName: string;
    }
  | { rail: 'MOBILE_MONEY'; country: string; currency: string; networkId: string; phone: string; accountName: string }
  | { rail: 'CRYPTO'; chain: string; address: string; currency: string };

export interface PayoutSubmission {
  /** Tessera's payout id: the rail's idempotency reference, so a repeated submission is one payout. */
  payoutId: string;
  /** What the recipient receives, in minor units of the destination currency. */
  amountMinor: bigint;
  currency: string;
  destination: PayoutDestination;
}

/** What the rail will report later about a submitted payout (its callback). */
export type RailOutcome = { status: 'SETTLED' } | { status: 'FAILED'; reason: string };

export interface RailAcceptance {
  providerRef: string;
  /**
   * The rail's report, if it will send one on its own, and after how long; null when the payout
   * stays submitted until something else moves it (the sandbox's advance helper).
   */
  callback: { outcome: RailOutcome; afterMs: number } | null;
}

/** A payout rail (bank transfer, mobile money, crypto): takes payouts and later reports their outcome. */
export interface PayoutRail {
  readonly name: string;
  /** The rail's compliance hold: 'review' keeps the payout PENDING_REVIEW until an OWNER or ADMIN decides. */
  holdFor(destination: PayoutDestination): 'none' | 'review';
  /** Whether a created payout is dispatched at once ('auto') or waits to be advanced ('manual', sandbox only). */
  dispatchOf(destination: PayoutDestination): 'auto' | 'manual';
  submit(submission: PayoutSubmission): Promise<RailAcceptance>;
  /**
   * A rail that reports by webhook: the submitted payout's final outcome, asked by Tessera's payout
   * id (the status poll of a payout whose webhook is late); null while it is not final. A rail
   * without it reports only through its callback.
   */
  outcomeOf?(payoutId: string): Promise<RailOutcome | null>;
}

/** The last 4 characters of the destination's account number, phone or address. */
export function destinationLast4(destination: PayoutDestination): string {
  const account =
    destination.rail === 'LOCAL_BANK'
      ? destination.accountNumber
      : destination.rail === 'MOBILE_MONEY'
        ? destination.phone
        : destination.address;
  return account.slice(-4);
}
