import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { V1Payment } from './v1-payment.entity';
import { ChargeDedupeClaim, Dispute, Payment, Refund } from './payment.entities';
import { paymentJobs } from './payments.jobs';

/** The payments area: what the registries gather from it (src/areas.ts lists it). */
export const paymentsArea = defineArea<Core>({
  name: 'payments',
  entities: [Payment, ChargeDedupeClaim, Refund, Dispute, V1Payment],
  jobs: (core) => paymentJobs(core.payments, core.charges),
});
