/** Reconcile the card acquirer's balance with the ledger over [from, to) (UTC instants). */
export interface ReconcileCommand {
  from: Date;
  to: Date;
}

/** Which runs the operator lists: of one acquirer or provider (`stripe`), overlapping [from, to). */
export interface ReconciliationRunFilters {
  provider?: string;
  from?: Date;
  to?: Date;
}
