import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { RecurringGift } from './recurring-gift.entity';
import { recurringGiftJobs } from './recurring-gifts.jobs';
import { RecurringGiftService } from './recurring-gift.service';
import { recurringGiftsSubscriptions } from './recurring-gifts.subscriptions';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export type { RecurringGiftFilters } from './recurring-gift.commands';
export { RecurringGift, RecurringGiftStatus } from './recurring-gift.entity';

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
