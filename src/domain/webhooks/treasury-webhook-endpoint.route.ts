import { DeliveryRoute } from './delivery-route';
import { WebhookDeliveryTarget } from './webhook-delivery.entity';
import { ALL_EVENTS, WebhookEndpointStatus, WebhookRegistry } from './webhook-endpoint.entity';

/**
 * Treasury events (`treasury.*`, design section 10) belong to the treasury product: they go to the
 * treasury registry's endpoints only, never to the webhookUrl nor to merchant endpoints (even those
 * subscribed to "*").
 */
const TREASURY_EVENT_PREFIX = 'treasury.';
export const isTreasuryEvent = (type: string) => type.startsWith(TREASURY_EVENT_PREFIX);

/**
 * Treasury events, and every other event a treasury endpoint subscribed to, go to the business's
 * enabled treasury endpoints of the event's mode while the business has the treasury product, each
 * delivery for that partner (signed with its endpoint's own secret).
 */
export const treasuryEndpointsRoute: DeliveryRoute = {
  owns: TREASURY_EVENT_PREFIX,
  targets: (event, bind) => `
    SELECT ${bind(WebhookDeliveryTarget.ENDPOINT)}::text AS target, e.url, e.id AS endpoint_id, e.business_id AS partner_id,
           1 AS rank, e.created_at
      FROM webhook_endpoints e
     WHERE e.business_id = ${event.businessId} AND e.livemode = ${event.livemode} AND e.registry = ${bind(WebhookRegistry.TREASURY)}
       AND e.status = ${bind(WebhookEndpointStatus.ENABLED)} AND e.events && ARRAY[${event.type}, ${bind(ALL_EVENTS)}]::text[]
       AND EXISTS (SELECT 1 FROM businesses b WHERE b.id = e.business_id AND b.treasury_enabled)`,
};
