import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { CheckoutSession } from './checkout-session.entity';
import { checkoutJobs } from './checkout.jobs';
import { CheckoutService } from './checkout.service';
import { V1PaymentService } from './v1-payment.service';
import { checkoutSubscriptions } from './checkout.subscriptions';

declare module '../core' {
  interface Core {
    checkout: CheckoutService;
    /** `/v1` payments: hosted checkout sessions in `/v1` terms, with their `/v1` events. */
    v1Payments: V1PaymentService;
  }
}

/** The checkout area: what the registries gather from it (src/areas.ts lists it). */
export const checkoutArea = defineArea<Core>({
  name: 'checkout',
  entities: [CheckoutSession],
  services: {
    checkout: (core) =>
      new CheckoutService(
        {
          publicBaseUrl: core.config.publicBaseUrl,
          sandbox3dsAutoCompleteMs: core.config.sandbox3dsAutoCompleteMs,
          attemptLimits: {
            perSession: core.config.checkoutMaxFailedAttemptsPerSession,
            perSource: core.config.checkoutMaxFailedAttemptsPerLink,
            perCard: core.config.checkoutMaxFailedAttemptsPerCard,
            windowSeconds: core.config.checkoutFailedAttemptsWindowSeconds,
          },
        },
        core.payments,
        core.events,
        core.sandboxClock,
        core.bus,
      ),
    v1Payments: (core) => new V1PaymentService(core.checkout, core.v1Events, core.webhookTargets, core.settlements),
  },
  subscriptions: checkoutSubscriptions,
  jobs: (core) => checkoutJobs(core.checkout),
});
