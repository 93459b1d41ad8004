import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { PAYMENTS_ERRORS } from './payments.errors';
import { V1Payment } from './v1-payment.entity';
import { ChargeDedupeClaim, Dispute, Payment, Refund } from './payment.entities';
import { paymentJobs } from './payments.jobs';
import { PaymentService } from './payment.service';
import { CardKeeper, ChargeService, SavedCardOf } from './charge.service';
import { ChargeStore } from './charge.store';
import { SettlementService } from './settlement.service';
import { RefundService } from './refund.service';
import { DisputeService } from './dispute.service';
import { PaymentStore } from './payment.store';
import { paymentProductSettings } from './payments.settings';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export type { CardKeeper, SavedCardOf } from './charge.service';
export { authenticationReturnPathOf } from './charge.service';
export { paymentReferenceOf, referenceDigitsOf } from './payment-reference';
export type { AcquirerDisputeResult } from './dispute.service';
export type {
  AcquirerDisputeCommand,
  AcquirerDisputeOutcomeCommand,
  AcquirerOutcomeCommand,
  AuthenticationReturnCommand,
  CardSource,
  ChargeCommand,
  DisputeFilters,
  OpenDisputeCommand,
  PaymentFilters,
  RefundCommand,
  ResolveDisputeCommand,
} from './payment.commands';
export {
  CAPTURED_PAYMENT_STATUSES,
  Dispute,
  DisputeStatus,
  Payment,
  PaymentFailureReason,
  PaymentSource,
  PaymentStatus,
  Refund,
} from './payment.entities';
export { MAX_VOLUME_BUCKETS, VolumeInterval } from './payment-volume';
export type { PaymentVolume, PaymentVolumeQuery, VolumeBucket, VolumeFigures } from './payment-volume';
export { PaymentService, vaultedOf } from './payment.service';
export type { ChargeAttempt } from './payment.service';
export { awaitsAuthentication } from './payment.states';
export { PaymentsErrorCode } from './payments.errors';
export { setServerToServerCharging } from './payments.settings';
export { PaymentTopic } from './payments.topics';
export type { PaymentChange } from './payments.topics';
export { SettlementService } from './settlement.service';
export { V1Payment } from './v1-payment.entity';

declare module '../core' {
  interface Core {
    /** Payment reads, and the charge and job operations other areas and the worker use. */
    payments: PaymentService;
    /** The payments' rows and their change messages, shared by the services below. */
    paymentStore: PaymentStore;
    charges: ChargeService;
    settlements: SettlementService;
    refunds: RefundService;
    disputes: DisputeService;
  }
}

declare module '../shared/area' {
  interface AreaContributions {
    /** How a charge finds the saved card it names: contributed by the area that keeps saved cards (customers). */
    savedCardOf?: SavedCardOf;
    /** Whom a charge that keeps its card keeps it for: contributed by the area that keeps customers (customers). */
    cardKeeper?: CardKeeper;
  }
}

/** The one `savedCardOf` an area contributes; a program without one cannot charge saved cards, and is refused at start. */
function savedCardOf(core: Core): SavedCardOf {
  const [contributed, ...others] = core.contributions('savedCardOf');
  if (!contributed || others.length > 0) throw new Error('Exactly one area must contribute savedCardOf (customers)');
  return contributed;
}

/** The one `cardKeeper` an area contributes, as for `savedCardOf`. */
function cardKeeper(core: Core): CardKeeper {
  const [contributed, ...others] = core.contributions('cardKeeper');
  if (!contributed || others.length > 0) throw new Error('Exactly one area must contribute cardKeeper (customers)');
  return contributed;
}

/** The payments area: what the registries gather from it (src/areas.ts lists it). */
export const paymentsArea = defineArea<Core>({
  name: 'payments',
  entities: [Payment, ChargeDedupeClaim, Refund, Dispute, V1Payment],
  productSettings: paymentProductSettings,
  services: {
    paymentStore: (core) => new PaymentStore(core.pubSub),
    charges: (core) =>
      new ChargeService(
        {
          settlementDelaySeconds: core.config.paymentSettlementDelaySeconds,
          sandbox3dsAutoCompleteMs: core.config.sandbox3dsAutoCompleteMs,
          publicBaseUrl: core.config.publicBaseUrl,
        },
        core.providers,
        core.ledger,
        core.events,
        core.paymentStore,
        new ChargeStore(),
        (tx, attempt) => core.fraud.screen(tx, attempt),
        savedCardOf(core),
        cardKeeper(core),
      ),
    settlements: (core) => new SettlementService(core.ledger, core.events, core.paymentStore, core.providers),
    disputes: (core) => new DisputeService(core.ledger, core.events, core.paymentStore, core.settlements),
    payments: (core) => new PaymentService(core.paymentStore, core.charges, core.settlements, core.disputes),
    refunds: (core) => new RefundService(core.ledger, core.events, core.paymentStore, core.settlements, core.providers),
  },
  errors: PAYMENTS_ERRORS,
  jobs: (core) => paymentJobs(core.payments, core.charges, core.refunds),
});
