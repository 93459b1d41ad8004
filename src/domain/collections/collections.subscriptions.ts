import { AnySubscription } from '../shared/domain-events';
import { CollectionService } from './collection.service';

/** What collections hear: a checkout session offering local rails (refused when the rail cannot collect them), and a test clock's advance. */
export const collectionsSubscriptions = ({ collections }: { collections: CollectionService }): AnySubscription[] => [
  {
    event: 'checkout.local-rails-offered',
    phase: 'in-transaction',
    name: 'collections.check-session-rails',
    handle: (ctx, offered) => collections.assertSessionRails(ctx, offered.currency, offered.rails),
  },
  {
    event: 'sandbox.clock-advancing',
    phase: 'in-transaction',
    name: 'collections.count-expiring',
    handle: (tx, advancing) => collections.countExpiring(tx, advancing),
  },
  {
    event: 'sandbox.clock-slice',
    phase: 'in-transaction',
    name: 'collections.expire',
    handle: (ctx, slice) => collections.expireOnAdvance(ctx, slice),
  },
];
