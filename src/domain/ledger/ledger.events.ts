import { LedgerAccount } from './ledger.entities';

/**
 * A merchant wallet a posting took money from (`ledger.wallet-debited`, in the debit's
 * transaction): its balance before and after, from the conditional UPDATE that holds the wallet's
 * row lock until commit, so concurrent debits of one wallet each see their own before and after,
 * in commit order, and a subscriber judging a crossing from them needs no lock of its own.
 */
export interface WalletDebit {
  wallet: LedgerAccount;
  before: bigint;
  after: bigint;
}

declare module '../shared/domain-events' {
  interface DomainEvents {
    'ledger.wallet-debited': WalletDebit;
  }
}
