export interface WalletBalanceChange {
  businessId: string;
  livemode: boolean;
  walletId: string;
  currency: string;
  balanceMinor: string;
  changeMinor: string;
  journalTransactionId: string;
  occurredAt: string;
}

/** The ledger area's topic, as named on the wire: a wallet's balance moved. */
export const LedgerTopic = { WALLET_BALANCE: 'WALLET_BALANCE' } as const;

declare module '../events/pubsub' {
  interface TopicPayloads {
    [LedgerTopic.WALLET_BALANCE]: [WalletBalanceChange];
  }
}
