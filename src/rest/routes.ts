import { Core } from '../domain/core';
import { eventRoutes } from './events/events.routes';
import { identityRoutes } from './identity/identity.routes';
import { walletRoutes } from './wallets/wallets.routes';
import { webhookEndpointRoutes } from './webhooks/webhook-endpoints.routes';
import { paymentRoutes } from './payments/payments.routes';
import { treasuryWebhookEndpointRoutes } from './webhooks/treasury-webhook-endpoints.routes';
import { customerRoutes } from './customers/customers.routes';
import { tokenRoutes } from './tokens/tokens.routes';
import { fraudRoutes } from './fraud/fraud.routes';
import { checkoutSessionRoutes } from './checkout/checkout-sessions.routes';
import { paymentLinkRoutes } from './payment-links/payment-links.routes';
import { invoiceRoutes } from './invoices/invoices.routes';
import { recurringGiftRoutes } from './recurring-gifts/recurring-gifts.routes';
import { payoutRoutes } from './payouts/payouts.routes';
import { payoutPinRoutes } from './payouts/payout-pin.routes';
import { scheduleRoutes } from './payouts/schedules.routes';
import { collectionRoutes } from './collections/collections.routes';
import { sandboxClockRoutes } from './sandbox/clock.routes';
import { treasuryRoutes } from './treasury/treasury.routes';
import { registerAliases } from './shared/aliases';
import type { RestApp } from './surface';

/** Every REST route of the compatibility layer, by area, and the documented unprefixed aliases of some. */
export function registerRestRoutes(app: RestApp, core: Core) {
  registerAliases(app);
  identityRoutes(app, core);
  walletRoutes(app, core);
  webhookEndpointRoutes(app, core);
  treasuryWebhookEndpointRoutes(app, core);
  eventRoutes(app, core);
  paymentRoutes(app, core);
  customerRoutes(app, core);
  tokenRoutes(app, core);
  fraudRoutes(app, core);
  checkoutSessionRoutes(app, core);
  paymentLinkRoutes(app, core);
  invoiceRoutes(app, core);
  recurringGiftRoutes(app, core);
  scheduleRoutes(app, core);
  payoutRoutes(app, core);
  payoutPinRoutes(app, core);
  collectionRoutes(app, core);
  sandboxClockRoutes(app, core);
  treasuryRoutes(app, core);
}
