/** Reconcile a provider's balance with the ledger over [from, to) (UTC instants). */
export interface ReconcileCommand {
  from: Date;
  to: Date;
  /** Only this provider's source (`stripe`); every configured one (the daily job) or the first (the CLI) otherwise. */
  provider?: string;
}

/** Which runs the operator lists: of one acquirer or provider (`stripe`), overlapping [from, to). */
export interface ReconciliationRunFilters {
  provider?: string;
  from?: Date;
  to?: Date;
}
