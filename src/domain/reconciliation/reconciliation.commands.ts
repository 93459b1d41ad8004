/** Reconcile the card acquirer's balance with the ledger over [from, to) (UTC instants). */
export interface ReconcileCommand {
  from: Date;
  to: Date;
}
