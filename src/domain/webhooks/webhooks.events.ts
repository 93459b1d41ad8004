import { TesseraPubSub, Topic, WebhookDeliveryChange } from '../events/pubsub';
import { RequestContext } from '../shared/context';
import { WebhookDelivery } from './webhook-delivery.entity';

/**
 * What the webhook area announces: a delivery was created or attempted (the dashboard's
 * subscriptions re-read it). Published after commit, so a subscriber never reads a delivery that
 * was rolled back.
 */
export const deliveryChanged = (delivery: WebhookDelivery): WebhookDeliveryChange =>
  ({ businessId: delivery.businessId, livemode: delivery.livemode, deliveryId: delivery.id });

export function announceDelivery(tx: RequestContext, pubSub: TesseraPubSub, delivery: WebhookDelivery): void {
  const change = deliveryChanged(delivery);
  tx.afterCommit(() => pubSub.publish(Topic.WEBHOOK_DELIVERY, change));
}

/** Announces a change already committed (a write outside any transaction, or after its commit). */
export async function publishDeliveryChange(pubSub: TesseraPubSub, delivery: WebhookDelivery): Promise<void> {
  await pubSub.publish(Topic.WEBHOOK_DELIVERY, deliveryChanged(delivery));
}
