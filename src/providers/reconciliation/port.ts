import type { AcquirerBalanceTransaction, AcquirerTransactionType, BalancePeriod } from '../card-acquirer/port';

/**
 * What an entry moved: the card acquirer's types (Stripe's balance transactions), or a payout
 * rail's `payout` (money out) and `collection` (money in), or a treasury rail's `treasury_payout`
 * (Bridge's completed transfer) and `treasury_deposit` (money Bridge received for a wallet). A type the source's `compares` has no
 * rule for is listed, not compared (as `other`).
 */
export type BalanceEntryType =
  AcquirerTransactionType | 'payout' | 'collection' | 'treasury_payout' | 'treasury_deposit';

/**
 * One entry of a provider's balance, for reconciliation: the card acquirer's shape (Stripe's
 * balance transaction), which a provider of another kind maps its own entries onto: `sourceId` is
 * the provider's id of what moved (the one Tessera keeps), `createdAt` when it moved.
 */
export type BalanceEntry = Omit<AcquirerBalanceTransaction, 'type'> & { type: BalanceEntryType };

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
   * rules for (`card-acquirer`: payments, refunds and disputes by their acquirer references;
   * `payout-rail`: payouts and collections by their provider references; `treasury-rail`: treasury
   * payouts by the rail's reference, deposits by the rail's deposit id in their credit's reference).
   */
  compares: 'card-acquirer' | 'payout-rail' | 'treasury-rail';
  /**
   * The entries created in the period, every page of them; null when the provider keeps no balance
   * (a sandbox). `tessera` answers what the provider cannot list by itself (a source that needs
   * nothing of it ignores it).
   */
  balanceEntries(period: BalancePeriod, tessera: ReconciliationLookup): Promise<BalanceEntry[] | null>;
}

/**
 * What a source may ask Tessera while it lists its entries: a provider that lists some of its
 * entries only per account it opened for Tessera (Bridge: a liquidation address's drains) reads
 * those accounts here. Read-only.
 */
export interface ReconciliationLookup {
  /**
   * The rail's own references (`OpenedDepositAccount.providerRefs`) of every live treasury wallet
   * that keeps one named `key` (Bridge's USDC wallets: `liquidationAddressId`, with their
   * `customerId`), whatever the wallet's status.
   */
  liveWalletRefs(key: string): Promise<Array<Record<string, string>>>;
}
