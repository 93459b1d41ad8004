import { WebhookEndpointResolver } from './webhook-endpoint.resolver';
import { TreasuryWebhookEndpointResolver } from './treasury-webhook-endpoint.resolver';

/** The webhooks area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [WebhookEndpointResolver, TreasuryWebhookEndpointResolver];
