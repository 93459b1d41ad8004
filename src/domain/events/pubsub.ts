import { createPubSub } from '@graphql-yoga/subscription';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import Redis from 'ioredis';

/** Topics published after commit; GraphQL subscriptions listen to them. */
export enum Topic {
  EVENT = 'EVENT',
  WALLET_BALANCE = 'WALLET_BALANCE',
  WEBHOOK_DELIVERY = 'WEBHOOK_DELIVERY',
  PAYMENT = 'PAYMENT',
}

/** A payment's status (or refunds, or disputes) changed; subscribers read its current state. */
export interface PaymentChange {
  businessId: string;
  livemode: boolean;
  paymentId: string;
}

/** A webhook delivery's new state, after an attempt (or its creation) committed. */
export interface WebhookDeliveryChange {
  businessId: string;
  livemode: boolean;
  deliveryId: string;
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

type Topics = {
  [Topic.EVENT]: [PublishedEvent];
  [Topic.WALLET_BALANCE]: [WalletBalanceChange];
  [Topic.WEBHOOK_DELIVERY]: [WebhookDeliveryChange];
  [Topic.PAYMENT]: [PaymentChange];
};

const reportToStderr = (error: unknown) => console.error('[pubsub]', error instanceof Error ? error.message : error);

/**
 * In-process by default; through Redis pub/sub when `redisUrl` is set, so it spans processes.
 * Publishing runs after a commit, so it must never throw: while Redis is unreachable, messages are
 * dropped and reported to `onError` (the committed event rows stay in the outbox).
 */
export function createTesseraPubSub(redisUrl?: string, onError: (error: unknown) => void = reportToStderr) {
  if (!redisUrl) {
    return { pubSub: createPubSub<Topics>(), close: async () => undefined };
  }
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  publishClient.on('error', onError);
  subscribeClient.on('error', onError);
  const redisTarget = createRedisEventTarget({ publishClient, subscribeClient });
  const eventTarget: typeof redisTarget = {
    ...redisTarget,
    // The library's own dispatch leaves the publish promise unhandled, which would end the process.
    dispatchEvent(event) {
      publishClient.publish(event.type, JSON.stringify(event.detail)).catch(onError);
      return true;
    },
  };
  const pubSub = createPubSub<Topics>({ eventTarget });
  return {
    pubSub,
    close: async () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
