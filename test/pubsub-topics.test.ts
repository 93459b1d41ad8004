import { TopicName, createTesseraPubSub } from '../src/domain/events/pubsub';
import { CollectionTopic } from '../src/domain/collections/collections.topics';
import { EventTopic } from '../src/domain/events/events.topics';
import { IdentityTopic } from '../src/domain/identity/identity.topics';
import { LedgerTopic } from '../src/domain/ledger/ledger.topics';
import { PaymentTopic } from '../src/domain/payments/payments.topics';
import { PayoutTopic } from '../src/domain/payouts/payouts.topics';
import { TreasuryTopic } from '../src/domain/treasury/treasury.topics';
import { WebhookTopic } from '../src/domain/webhooks/webhooks.topics';

/* Each area declares its pub/sub topics in its `<area>.topics.ts` (issue 28); src/domain/events/pubsub.ts names none. */

describe('pub/sub topics, declared by their areas', () => {
  test('every topic keeps its name on the wire (the Redis channel is tessera:<name>)', () => {
    const declared: Record<string, TopicName> = {
      ...EventTopic,
      ...LedgerTopic,
      ...WebhookTopic,
      ...PaymentTopic,
      ...PayoutTopic,
      ...CollectionTopic,
      ...TreasuryTopic,
      ...IdentityTopic,
    };
    expect(declared).toEqual({
      EVENT: 'EVENT',
      WALLET_BALANCE: 'WALLET_BALANCE',
      WEBHOOK_DELIVERY: 'WEBHOOK_DELIVERY',
      PAYMENT: 'PAYMENT',
      PAYOUT: 'PAYOUT',
      PAYOUT_SCHEDULE: 'PAYOUT_SCHEDULE',
      COLLECTION: 'COLLECTION',
      TREASURY_PAYOUT: 'TREASURY_PAYOUT',
      TREASURY_KYC: 'TREASURY_KYC',
      ACCESS_REVOKED: 'ACCESS_REVOKED',
      WEBHOOKS_DUE: 'WEBHOOKS_DUE',
    });
  });

  test("the subscriptions gauge counts a topic's listeners, but not those of a topic its area marks internal (ACCESS_REVOKED, WEBHOOKS_DUE)", async () => {
    const { pubSub, close } = createTesseraPubSub();
    const listening = [
      pubSub.subscribe(PaymentTopic.PAYMENT),
      pubSub.subscribe(PaymentTopic.PAYMENT),
      pubSub.subscribe(IdentityTopic.ACCESS_REVOKED),
      pubSub.subscribe(WebhookTopic.WEBHOOKS_DUE),
    ].map((subscription) => subscription[Symbol.asyncIterator]());
    const pending = listening.map((iterator) => iterator.next());
    await new Promise((resolve) => setImmediate(resolve));
    expect(Object.fromEntries(pubSub.listeners.active())).toEqual({ PAYMENT: 2 });
    await Promise.all(listening.map((iterator) => iterator.return?.()));
    await Promise.all(pending);
    expect(Object.fromEntries(pubSub.listeners.active())).toEqual({});
    await close();
  });

  test('a topic is published and heard with its payload only: a topic no area declares does not compile', async () => {
    const { pubSub, close } = createTesseraPubSub();
    // @ts-expect-error: no area declares this topic.
    pubSub.publish('NOT_A_TOPIC', {});
    // @ts-expect-error: no area declares this topic.
    expect(pubSub.subscribe('NOT_A_TOPIC')).toBeDefined();
    // @ts-expect-error: WEBHOOKS_DUE carries { deliveries }.
    pubSub.publish(WebhookTopic.WEBHOOKS_DUE, { due: 1 });
    await close();
  });
});
