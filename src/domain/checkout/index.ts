import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { CheckoutSession } from './checkout-session.entity';
import { checkoutJobs } from './checkout.jobs';
import { CheckoutService } from './checkout.service';
import { V1PaymentService } from './v1-payment.service';
import { checkoutSubscriptions } from './checkout.subscriptions';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export {
  CheckoutPaymentMethod,
  CheckoutSession,
  CheckoutSessionSource,
  CheckoutSessionStatus,
} from './checkout-session.entity';
export type { RecurringInterval } from './checkout-session.entity';
export { checkoutSessionAllows } from './checkout-session.states';
export { sessionByToken, systemContextFor } from './checkout-session.store';
export type {
  CheckoutSessionFilters,
  CreateCheckoutSessionCommand,
  PayCheckoutSessionCommand,
} from './checkout.commands';
export type { SessionCompleted } from './checkout.events';
export { CheckoutService, CORRECT_THE_FIELDS } from './checkout.service';
export { CheckoutTopic } from './checkout.topics';
export type { CheckoutSessionChange } from './checkout.topics';
export type { AuthenticationReturnOutcome, CheckoutOutcome, CheckoutRefusal, CheckoutView } from './checkout.service';
export { V1PaymentStatus } from './v1-payment.commands';
export type { CreateV1PaymentCommand, V1PaymentFilters } from './v1-payment.commands';
export { v1PaymentData } from './v1-payment.service';
export type { V1PaymentView } from './v1-payment.service';

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
        core.pubSub,
      ),
    v1Payments: (core) => new V1PaymentService(core.checkout, core.v1Events, core.webhookTargets, core.settlements),
  },
  subscriptions: checkoutSubscriptions,
  jobs: (core) => checkoutJobs(core.checkout),
});
