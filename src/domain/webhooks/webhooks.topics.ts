import type { Topic } from '../events/pubsub';

/** A webhook delivery was created or attempted, and committed: what that change set. */
export interface WebhookDeliveryChange {
  businessId: string;
  livemode: boolean;
  deliveryId: string;
  /** Its status before the change; null when the change created it. */
  previousStatus: string | null;
  /** The delivery's fields the change set (on creation, every field). */
  changedFields: string[];
}

declare module '../events/pubsub' {
  interface TopicPayloads {
    [Topic.WEBHOOK_DELIVERY]: [WebhookDeliveryChange];
    [Topic.WEBHOOKS_DUE]: [{ deliveries: number }];
  }
}
