import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { V1Transfer } from './v1-transfer.entity';
import { Payout, PayoutBatch, PayoutQuote, Recipient } from './payout.entities';
import { PayoutPin, PayoutPinFailure } from './payout-pin.entity';
import { PayoutSchedule, PayoutScheduleRun } from './schedule.entities';
import { payoutJobs } from './payouts.jobs';

/** The payouts area: what the registries gather from it (src/areas.ts lists it). */
export const payoutsArea = defineArea<Core>({
  name: 'payouts',
  entities: [
    Recipient,
    PayoutQuote,
    Payout,
    PayoutBatch,
    PayoutPin,
    PayoutPinFailure,
    PayoutSchedule,
    PayoutScheduleRun,
    V1Transfer,
  ],
  jobs: (core) => payoutJobs(core.payouts, core.payoutScheduleRunner),
});
