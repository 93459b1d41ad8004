import { createPubSub } from '@graphql-yoga/subscription';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import Redis from 'ioredis';

/** Topics published after commit; GraphQL subscriptions listen to them. */
export enum Topic {
  EVENT = 'EVENT',
  WALLET_BALANCE = 'WALLET_BALANCE',
}

export interface PublishedEvent {
  id: string;
  businessId: string;
  livemode: boolean;
  type: string;
  data: Record<string, unknown>;
  createdAt: string;
}

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

export type TesseraPubSub = ReturnType<typeof createTesseraPubSub>['pubSub'];

/** In-process by default; through Redis pub/sub when `redisUrl` is set, so it spans processes. */
export function createTesseraPubSub(redisUrl?: string) {
  if (!redisUrl) {
    const pubSub = createPubSub<{ [Topic.EVENT]: [PublishedEvent]; [Topic.WALLET_BALANCE]: [WalletBalanceChange] }>();
    return { pubSub, close: async () => undefined };
  }
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const eventTarget = createRedisEventTarget({ publishClient, subscribeClient });
  const pubSub = createPubSub<{ [Topic.EVENT]: [PublishedEvent]; [Topic.WALLET_BALANCE]: [WalletBalanceChange] }>({
    eventTarget,
  });
  return {
    pubSub,
    close: async () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
