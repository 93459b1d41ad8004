import { FastifyInstance } from 'fastify';
import { Core } from '../domain/core';
import { eventRoutes } from './events/events.routes';
import { identityRoutes } from './identity/identity.routes';
import { walletRoutes } from './wallets/wallets.routes';
import { webhookEndpointRoutes } from './webhooks/webhook-endpoints.routes';
import { paymentRoutes } from './payments/payments.routes';
import { treasuryWebhookEndpointRoutes } from './webhooks/treasury-webhook-endpoints.routes';

/** Every REST route of the compatibility layer, by area. */
export function registerRestRoutes(app: FastifyInstance, core: Core) {
  identityRoutes(app, core);
  walletRoutes(app, core);
  webhookEndpointRoutes(app, core);
  treasuryWebhookEndpointRoutes(app, core);
  eventRoutes(app, core);
  paymentRoutes(app, core);
}
