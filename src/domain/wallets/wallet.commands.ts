/** Sandbox only: credits play money to the business's wallet in `currency`. */
export interface FundWalletCommand {
  currency: string;
  /** Minor units of `currency`; positive and at most the sandbox's per-funding limit. */
  amount: bigint;
}

/** Sets (or, with null, removes) the low-balance threshold of the business's wallet in `currency`, in the context's mode. */
export interface SetLowBalanceThresholdCommand {
  currency: string;
  /** Minor units of `currency`, greater than zero; null: no threshold. */
  threshold: bigint | null;
}
