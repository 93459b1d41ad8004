import { AreaJobs } from '../shared/jobs';
import type { CheckoutService } from './checkout.service';
import { EXPIRE_CHECKOUT_SESSION_TASK, RECONCILE_CHECKOUT_SESSION_TASK } from './checkout-session.store';

export { EXPIRE_CHECKOUT_SESSION_TASK, RECONCILE_CHECKOUT_SESSION_TASK };

/** Checkout's background tasks (src/jobs/worker.ts runs them). */
export function checkoutJobs(checkout: Pick<CheckoutService, 'expireDue' | 'reconcile'>): AreaJobs {
  return {
    actor: 'checkout',
    tasks: {
      /** A checkout session reached its expiresAt unpaid. */
      [EXPIRE_CHECKOUT_SESSION_TASK]: async (payload, _log, system) => {
        await checkout.expireDue(system(), (payload as { sessionId: string }).sessionId);
      },
      /** Completes a checkout session whose 3-D Secure payment finished while the payer was away. */
      [RECONCILE_CHECKOUT_SESSION_TASK]: async (payload, _log, system) => {
        await checkout.reconcile(system(), (payload as { sessionId: string }).sessionId);
      },
    },
  };
}
