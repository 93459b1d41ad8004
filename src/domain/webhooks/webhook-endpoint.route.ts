import { DeliveryRoute } from './delivery-route';
import { WebhookRegistry } from './webhook-endpoint.entity';

/** Every event goes to the business's merchant endpoints subscribed to it. */
export const merchantEndpointsRoute: DeliveryRoute = { registry: WebhookRegistry.MERCHANT };
