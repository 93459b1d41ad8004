import type { Topic } from '../events/pubsub';

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

declare module '../events/pubsub' {
  interface TopicPayloads {
    [Topic.WALLET_BALANCE]: [WalletBalanceChange];
  }
}
