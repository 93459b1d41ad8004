import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { PAYOUTS_ERRORS } from './payouts.errors';
import { V1Transfer } from './v1-transfer.entity';
import { Payout, PayoutBatch, PayoutQuote, Recipient } from './payout.entities';
import { PayoutPin, PayoutPinFailure } from './payout-pin.entity';
import { PayoutSchedule, PayoutScheduleRun } from './schedule.entities';
import { payoutJobs } from './payouts.jobs';
import { RecipientService } from './recipient.service';
import { QuoteService } from './quote.service';
import { PayoutService } from './payout.service';
import { BatchService } from './batch.service';
import { PayoutPinService } from './payout-pin.service';
import { ScheduleService } from './schedule.service';
import { ScheduleRunner } from './schedule-runner';
import { V1TransferService } from './v1-transfer.service';
import { payoutProductSettings } from './payouts.settings';
import { payoutsSubscriptions } from './payouts.subscriptions';

declare module '../core' {
  interface Core {
    /** Payouts (design section 8): recipients, quotes, payouts and batches. */
    recipients: RecipientService;
    quotes: QuoteService;
    payouts: PayoutService;
    payoutBatches: BatchService;
    /** The business's payout PIN: set by an OWNER, checked (`verify`) before payouts are scheduled. */
    payoutPins: PayoutPinService;
    /** Scheduled payouts: the resource, its lifecycle and the runner (design section 8). */
    payoutSchedules: ScheduleService;
    /** Fires due schedule runs, each exactly once (the worker's jobs, and the test clock's advance). */
    payoutScheduleRunner: ScheduleRunner;
    /** `/v1` transfers: payouts in `/v1` terms, with their `/v1` events. */
    v1Transfers: V1TransferService;
  }
}

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
  productSettings: payoutProductSettings,
  services: {
    recipients: (core) => new RecipientService(core.providers, core.secretBox),
    quotes: (core) => new QuoteService(core.providers),
    payouts: (core) =>
      new PayoutService(core.providers, core.ledger, core.events, core.recipients, core.quotes, core.pubSub, core.bus),
    payoutBatches: (core) => new BatchService(core.payouts),
    payoutPins: () => new PayoutPinService(),
    payoutSchedules: (core) =>
      new ScheduleService(
        core.providers,
        core.events,
        core.recipients,
        core.payouts,
        core.payoutBatches,
        core.payoutPins,
        core.sandboxClock,
        core.pubSub,
      ),
    payoutScheduleRunner: (core) =>
      new ScheduleRunner(core.providers, core.events, core.payouts, core.payoutBatches, core.sandboxClock, core.pubSub),
    v1Transfers: (core) => new V1TransferService(core.recipients, core.payouts, core.v1Events),
  },
  subscriptions: payoutsSubscriptions,
  errors: PAYOUTS_ERRORS,
  jobs: (core) => payoutJobs(core.payouts, core.payoutScheduleRunner),
});
