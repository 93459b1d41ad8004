import { internalTopic } from '../events/pubsub';

/** The webhooks area's topics, as named on the wire. */
export const WebhookTopic = {
  WEBHOOK_DELIVERY: 'WEBHOOK_DELIVERY',
  /** Webhook deliveries due now were committed: the workers' delivery pumps claim them at once instead of at their next poll. */
  WEBHOOKS_DUE: internalTopic('WEBHOOKS_DUE'),
} as const;

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
    [WebhookTopic.WEBHOOK_DELIVERY]: [WebhookDeliveryChange];
    [WebhookTopic.WEBHOOKS_DUE]: [{ deliveries: number }];
  }
}
