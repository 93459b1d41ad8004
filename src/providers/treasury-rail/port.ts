/** Where a treasury payout goes, as the rail needs it (full details; never logged). */
export type TreasuryDestination =
  | {
      type: 'bank_account';
      accountNumber: string;
      routingNumber: string | null;
      bankCode: string | null;
      accountName: string;
      country: string;
      bankName: string | null;
    }
  | { type: 'mobile_money'; phone: string; networkId: string; country: string; accountName: string | null }
  | { type: 'crypto'; address: string; chain: string };

export interface TreasuryPayoutSubmission {
  /** Tessera's payout id: the rail's idempotency reference, so a repeated submission is one payout. */
  payoutId: string;
  amountMinor: bigint;
  currency: string;
  destination: TreasuryDestination;
  /** The payout's `metadata.test_outcome` (sandbox only; a live rail ignores it). */
  testOutcome: string | null;
  /** The rail's own references of the wallet paid out of (`OpenedDepositAccount.providerRefs`), when it kept any. */
  walletRefs: Record<string, string> | null;
}

/** What the rail reports later about a payout it took. */
export type TreasuryRailOutcome = { status: 'COMPLETED' } | { status: 'FAILED'; reason: string };

export interface TreasuryRailAcceptance {
  providerRef: string;
  /** The rail's report and after how long; null when the payout stays PROCESSING until something else moves it. */
  callback: { outcome: TreasuryRailOutcome; afterMs: number } | null;
}

/** A deposit account the rail opens for a wallet: a fiat virtual account or a chain address. */
export interface OpenedDepositAccount {
  accountNumber: string | null;
  routingNumber: string | null;
  iban: string | null;
  bankName: string | null;
  accountType: string | null;
  chain: string | null;
  address: string | null;
  instructions: Record<string, string | null>;
  /**
   * The rail's own ids of what it opened (Bridge: its customer, wallet, virtual account or
   * liquidation address), kept with the wallet for its deposits and payouts; never shown.
   */
  providerRefs?: Record<string, string>;
}

/**
 * The treasury rail (banking partner): opens deposit accounts for end-user wallets and sends
 * payouts out of them, reporting each payout's outcome later.
 */
export interface TreasuryRail {
  readonly name: string;
  /** The currencies it holds wallets in. */
  readonly currencies: readonly string[];
  /** Whether a created payout is dispatched at once ('auto') or stays PENDING until cancelled ('manual', sandbox only). */
  dispatchOf(testOutcome: string | null): 'auto' | 'manual';
  openDepositAccount(request: {
    walletId: string;
    currency: string;
    holderName: string;
    /** The KYC provider's reference of the end-user's approved check (Bridge: its customer id); null in the sandbox. */
    endUserRef: string | null;
  }): Promise<OpenedDepositAccount>;
  submit(submission: TreasuryPayoutSubmission): Promise<TreasuryRailAcceptance>;
  /**
   * The payout's final outcome at the rail, asked by the reference it gave (the status poll of
   * payouts whose report is late or lost); null while it is not final, or when the rail has no such
   * payout. Absent on a rail that reports by itself (the sandbox).
   */
  outcomeOf?(payout: { payoutId: string; providerRef: string }): Promise<TreasuryRailOutcome | null>;
}
