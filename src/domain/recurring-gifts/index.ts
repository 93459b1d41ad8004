import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { RecurringGift } from './recurring-gift.entity';
import { recurringGiftJobs } from './recurring-gifts.jobs';

/** The recurring-gifts area: what the registries gather from it (src/areas.ts lists it). */
export const recurringGiftsArea = defineArea<Core>({
  name: 'recurring-gifts',
  entities: [RecurringGift],
  jobs: (core) => recurringGiftJobs(core.recurringGifts),
});
