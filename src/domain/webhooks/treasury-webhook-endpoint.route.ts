import { DeliveryRoute } from './delivery-route';
import { WebhookRegistry } from './webhook-endpoint.entity';

/**
 * Treasury events (`treasury.*`, design section 10) belong to the treasury product: they go to the
 * treasury registry's endpoints only, never to the webhookUrl nor to merchant endpoints (even those
 * subscribed to "*").
 */
const TREASURY_EVENT_PREFIX = 'treasury.';
export const isTreasuryEvent = (type: string) => type.startsWith(TREASURY_EVENT_PREFIX);

/**
 * Treasury events, and every other event a treasury endpoint subscribed to, go to the business's
 * treasury endpoints while the business has the treasury product, each delivery for that partner.
 */
export const treasuryEndpointsRoute: DeliveryRoute = {
  owns: TREASURY_EVENT_PREFIX,
  registry: WebhookRegistry.TREASURY,
  admits: () => 'EXISTS (SELECT 1 FROM businesses b WHERE b.id = e.business_id AND b.treasury_enabled)',
  forPartner: true,
};
