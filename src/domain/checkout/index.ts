import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { CheckoutSession } from './checkout-session.entity';
import { checkoutJobs } from './checkout.jobs';

/** The checkout area: what the registries gather from it (src/areas.ts lists it). */
export const checkoutArea = defineArea<Core>({
  name: 'checkout',
  entities: [CheckoutSession],
  jobs: (core) => checkoutJobs(core.checkout),
});
