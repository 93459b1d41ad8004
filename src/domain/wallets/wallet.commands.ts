/** Sandbox only: credits play money to the business's wallet in `currency`. */
export interface FundWalletCommand {
  currency: string;
  /** Minor units of `currency`; positive and at most the sandbox's per-funding limit. */
  amount: bigint;
}
