import { FastifyInstance } from 'fastify';
import { Core } from '../domain/core';
import { eventRoutes } from './events/events.routes';
import { identityRoutes } from './identity/identity.routes';
import { walletRoutes } from './wallets/wallets.routes';
import { webhookEndpointRoutes } from './webhooks/webhook-endpoints.routes';
import { checkoutSessionRoutes } from './checkout/checkout-sessions.routes';
import { paymentLinkRoutes } from './payment-links/payment-links.routes';
import { invoiceRoutes } from './invoices/invoices.routes';
import { recurringGiftRoutes } from './recurring-gifts/recurring-gifts.routes';

/** Every REST route of the compatibility layer, by area. */
export function registerRestRoutes(app: FastifyInstance, core: Core) {
  identityRoutes(app, core);
  walletRoutes(app, core);
  webhookEndpointRoutes(app, core);
  eventRoutes(app, core);
  checkoutSessionRoutes(app, core);
  paymentLinkRoutes(app, core);
  invoiceRoutes(app, core);
  recurringGiftRoutes(app, core);
}
