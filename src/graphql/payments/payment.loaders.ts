import DataLoader from 'dataloader';
import { Core } from '../../domain/core';
import { RequestContext } from '../../domain/shared/context';
import { DomainEvent } from '../../domain/events/event.entity';
import { Dispute, Payment, Refund } from '../../domain/payments';
import { alignTo, groupBy } from '../shared/keyed';

/** The payments area's per-request DataLoaders. */
export interface PaymentLoaders {
  /** Payments of the caller's business and mode (null for any other id). */
  paymentById: DataLoader<string, Payment | null>;
  refundsByPaymentId: DataLoader<string, Refund[]>;
  disputesByPaymentId: DataLoader<string, Dispute[]>;
  /** Each payment's events (payment.* naming it in `data.paymentId`), oldest first. */
  eventsByPaymentId: DataLoader<string, DomainEvent[]>;
}

declare module '../shared/loaders' {
  interface Loaders extends PaymentLoaders {}
}

export function createPaymentLoaders(core: Core, ctx: RequestContext): PaymentLoaders {
  return {
    paymentById: new DataLoader(async (ids) =>
      alignTo(ids, await core.payments.byIds(ctx, [...ids]), (payment) => payment.id),
    ),
    refundsByPaymentId: new DataLoader(async (paymentIds) =>
      groupBy(paymentIds, await core.payments.refundsOf(ctx, [...paymentIds]), (refund) => refund.paymentId),
    ),
    disputesByPaymentId: new DataLoader(async (paymentIds) =>
      groupBy(paymentIds, await core.payments.disputesOf(ctx, [...paymentIds]), (dispute) => dispute.paymentId),
    ),
    eventsByPaymentId: new DataLoader(async (paymentIds) =>
      groupBy(paymentIds, await core.eventLog.aboutPayments(ctx, [...paymentIds]), (event) =>
        String(event.data.paymentId),
      ),
    ),
  };
}
