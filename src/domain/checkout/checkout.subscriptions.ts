import { AnySubscription } from '../shared/domain-events';
import { CheckoutService } from './checkout.service';

/** What checkout hears: a test clock's advance expires the open sessions it passed. */
export const checkoutSubscriptions = ({ checkout }: { checkout: CheckoutService }): AnySubscription[] => [
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
];
