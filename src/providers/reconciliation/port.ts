import type { AcquirerBalanceTransaction, BalancePeriod } from '../card-acquirer/port';

/**
 * One entry of a provider's balance, for reconciliation: today the card acquirer's shape (Stripe's
 * balance transaction). A provider of another kind maps its own entries onto it.
 */
export type BalanceEntry = AcquirerBalanceTransaction;

/**
 * A provider's balance that the daily reconciliation compares with the ledger (docs/live.md,
 * Reconciliation), declared by its kind (`reconciliation` in src/providers/kind.ts) as webhooks
 * are. Each run is of one source and carries its provider's name.
 */
export interface ReconciliationSource {
  /** The provider's name (`stripe`): recorded on its runs and differences, and `tessera reconcile --provider`. */
  provider: string;
  /**
   * Which of Tessera's bookings its entries are compared with: a kind the reconciliation area has
   * rules for (`card-acquirer`: payments, refunds and disputes by their acquirer references).
   */
  compares: 'card-acquirer';
  /** The entries created in the period, every page of them; null when the provider keeps no balance (a sandbox). */
  balanceEntries(period: BalancePeriod): Promise<BalanceEntry[] | null>;
}
