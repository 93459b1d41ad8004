/** A wallet's balance has just fallen below its threshold, from at or above it (`wallet.low-balance-crossed`, in the debit's transaction). */
export interface LowBalanceCrossing {
  businessId: string;
  livemode: boolean;
  walletId: string;
  currency: string;
  /** The balance after the debit, minor units. */
  balance: bigint;
  threshold: bigint;
}

declare module '../shared/domain-events' {
  interface DomainEvents {
    'wallet.low-balance-crossed': LowBalanceCrossing;
  }
}
