import { AnySubscription } from '../shared/domain-events';
import { CheckoutSessionSource } from './checkout-session.entity';
import { CheckoutService } from './checkout.service';
import { V1PaymentService } from './v1-payment.service';

/**
 * What checkout hears: a test clock's advance expires the open sessions it passed; a `/v1` session's
 * end is recorded as its `/v1` payment event.
 */
export const checkoutSubscriptions = ({
  checkout,
  v1Payments,
}: {
  checkout: CheckoutService;
  v1Payments: V1PaymentService;
}): AnySubscription[] => [
  {
    event: 'sandbox.clock-advancing',
    phase: 'in-transaction',
    name: 'checkout.count-expiring-sessions',
    handle: (tx, advancing) => checkout.countExpiring(tx, advancing),
  },
  {
    event: 'sandbox.clock-slice',
    phase: 'in-transaction',
    name: 'checkout.expire-sessions',
    handle: (ctx, slice) => checkout.expireOnAdvance(ctx, slice),
  },
  {
    event: 'checkout.session-ended',
    phase: 'in-transaction',
    name: 'checkout.v1-payment-events',
    handle: async (tx, { session }) => {
      if (session.source === CheckoutSessionSource.V1) await v1Payments.announce(tx, session);
    },
  },
];
