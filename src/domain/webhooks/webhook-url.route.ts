import { DeliveryRoute } from './delivery-route';
import { WebhookDeliveryTarget } from './webhook-delivery.entity';

/** Every event goes first to the business's own `webhookUrl` of the event's mode, when one is set. */
export const webhookUrlRoute: DeliveryRoute = {
  targets: (event, bind) => `
    SELECT ${bind(WebhookDeliveryTarget.WEBHOOK_URL)}::text AS target, s.webhook_url AS url, NULL::uuid AS endpoint_id,
           NULL::uuid AS partner_id, 0 AS rank, NULL::timestamptz AS created_at
      FROM business_settings s
     WHERE s.business_id = ${event.businessId} AND s.livemode = ${event.livemode} AND s.webhook_url IS NOT NULL`,
};
