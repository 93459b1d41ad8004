import { DeliveryRoute } from './delivery-route';
import { WebhookDeliveryTarget } from './webhook-delivery.entity';
import { ALL_EVENTS, WebhookEndpointStatus, WebhookRegistry } from './webhook-endpoint.entity';

/** Every event goes to the business's enabled merchant endpoints of its mode subscribed to its type (or "*"). */
export const merchantEndpointsRoute: DeliveryRoute = {
  targets: (event, bind) => `
    SELECT ${bind(WebhookDeliveryTarget.ENDPOINT)}::text AS target, e.url, e.id AS endpoint_id, NULL::uuid AS partner_id,
           1 AS rank, e.created_at
      FROM webhook_endpoints e
     WHERE e.business_id = ${event.businessId} AND e.livemode = ${event.livemode} AND e.registry = ${bind(WebhookRegistry.MERCHANT)}
       AND e.status = ${bind(WebhookEndpointStatus.ENABLED)} AND e.events && ARRAY[${event.type}, ${bind(ALL_EVENTS)}]::text[]`,
};
