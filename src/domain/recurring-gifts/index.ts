import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { RecurringGift } from './recurring-gift.entity';
import { recurringGiftJobs } from './recurring-gifts.jobs';
import { RecurringGiftService } from './recurring-gift.service';
import { recurringGiftsSubscriptions } from './recurring-gifts.subscriptions';

declare module '../core' {
  interface Core {
    recurringGifts: RecurringGiftService;
  }
}

/** The recurring-gifts area: what the registries gather from it (src/areas.ts lists it). */
export const recurringGiftsArea = defineArea<Core>({
  name: 'recurring-gifts',
  entities: [RecurringGift],
  services: {
    recurringGifts: (core) =>
      new RecurringGiftService(
        {
          maxFailures: core.config.recurringGiftMaxFailures,
          retryDelaySeconds: core.config.recurringGiftRetryDelaySeconds,
        },
        core.payments,
        core.customers,
        core.events,
      ),
  },
  subscriptions: recurringGiftsSubscriptions,
  jobs: (core) => recurringGiftJobs(core.recurringGifts),
});
