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

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export { BatchStatus } from './batch.service';
export type { BatchCounts, BatchView } from './batch.service';
export { MAX_DAY_OF_MONTH, MIN_DAY_OF_MONTH, ScheduleCadence } from './cadence';
export type { PayoutPinStatus, SetPayoutPinCommand } from './payout-pin.commands';
export type {
  AdvancePayoutCommand,
  BatchItem,
  CreateBatchCommand,
  CreatePayoutCommand,
  CreateQuoteCommand,
  CreateRecipientCommand,
  PayoutFilters,
  RecipientFilters,
} from './payout.commands';
export { Payout, PayoutBatch, PayoutQuote, PayoutRailKind, PayoutStatus, Recipient } from './payout.entities';
export { PayoutsErrorCode } from './payouts.errors';
export { payoutObject } from './payouts.events';
export type { PayoutObject } from './payouts.events';
export { MAX_BATCH_ITEMS } from './payouts.settings';
export { PayoutTopic } from './payouts.topics';
export type { PayoutChange, PayoutScheduleChange } from './payouts.topics';
export type { IndicativeRate } from './quote.service';
export { maskTail } from './recipient.service';
export { CAP_AMOUNT, CAP_AMOUNT_MESSAGE, MAX_LOCAL_CAPS } from './schedule-caps';
export type {
  CreateScheduleCommand,
  ScheduleFilters,
  SchedulePayload,
  UpdateScheduleCommand,
} from './schedule.commands';
export {
  PayoutSchedule,
  PayoutScheduleRun,
  SchedulePayloadKind,
  ScheduleRunStatus,
  ScheduleStatus,
} from './schedule.entities';
export { scheduleObject, scheduleRunObject } from './schedules.events';
export type { ScheduleObject, ScheduleRunObject } from './schedules.events';
export { V1TransferStatus } from './v1-transfer.commands';
export type { CreateV1TransferCommand } from './v1-transfer.commands';
export { V1_TRANSFER_RAIL, v1TransferData } from './v1-transfer.service';
export type { V1TransferView } from './v1-transfer.service';

declare module '../core' {
  interface Core {
    /** Payouts (design section 8): recipients, quotes, payouts and batches. */
    recipients: RecipientService;
    quotes: QuoteService;
    payouts: PayoutService;
    payoutBatches: BatchService;
    /** The business's payout PIN: set by an OWNER, checked (`verify`, then `confirm` in the writing transaction) for schedules and payouts sent with it. */
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
      new PayoutService(
        core.providers,
        core.ledger,
        core.events,
        core.recipients,
        core.quotes,
        core.pubSub,
        core.bus,
        core.payoutPins,
      ),
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
