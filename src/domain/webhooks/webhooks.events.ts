import { TesseraPubSub } from '../events/pubsub';
import { WebhookDeliveryChange, WebhookTopic } from './webhooks.topics';
import { RequestContext } from '../shared/context';
import { WebhookDelivery } from './webhook-delivery.entity';

/** The fields of a delivery its readers see (webhookDeliveryUpdated's changedFields name them). */
const SHOWN_FIELDS = [
  'id',
  'eventId',
  'eventType',
  'url',
  'requestBody',
  'requestHeaders',
  'status',
  'attemptCount',
  'lastAttemptAt',
  'nextRetryAt',
  'responseStatus',
  'responseBody',
  'responseTimeMs',
  'errorMessage',
  'partnerId',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof WebhookDelivery>;

const sameValue = (a: unknown, b: unknown) =>
  a instanceof Date && b instanceof Date
    ? a.getTime() === b.getTime()
    : JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * What the webhook area announces: a delivery was created (`before` null: every field is new) or
 * attempted (the fields the attempt changed, and the status it had). The dashboard's subscriptions
 * re-read the delivery. Published after commit, so a subscriber never reads a delivery that was
 * rolled back.
 */
export const deliveryChanged = (
  delivery: WebhookDelivery,
  before: WebhookDelivery | null = null,
): WebhookDeliveryChange => ({
  businessId: delivery.businessId,
  livemode: delivery.livemode,
  deliveryId: delivery.id,
  previousStatus: before?.status ?? null,
  changedFields: before
    ? SHOWN_FIELDS.filter((field) => !sameValue(before[field], delivery[field]))
    : [...SHOWN_FIELDS],
});

export function announceDelivery(tx: RequestContext, pubSub: TesseraPubSub, delivery: WebhookDelivery): void {
  const change = deliveryChanged(delivery);
  tx.afterCommit(() => pubSub.publish(WebhookTopic.WEBHOOK_DELIVERY, change));
}

/** Announces an attempt already committed (a write outside any transaction, or after its commit): `before` is the delivery it was made on. */
export async function publishDeliveryChange(
  pubSub: TesseraPubSub,
  delivery: WebhookDelivery,
  before: WebhookDelivery,
): Promise<void> {
  pubSub.publish(WebhookTopic.WEBHOOK_DELIVERY, deliveryChanged(delivery, before));
}
