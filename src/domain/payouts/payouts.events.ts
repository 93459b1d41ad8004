import { EventNameOf } from '../events/catalog';
import { toMajor } from '../shared/money';
import { Payout } from './payout.entities';

/** The payout.* events (interface document, Events): data `{ object, livemode }`, object the payout's read shape. */
export const PayoutEvent = {
  INITIATED: 'payout.initiated',
  SUBMITTED: 'payout.submitted',
  SETTLED: 'payout.settled',
  FAILED: 'payout.failed',
  CANCELLED: 'payout.cancelled',
  REVIEW: 'payout.review',
} as const;

export type PayoutEventType = EventNameOf<typeof PayoutEvent>;

/**
 * The documented Business payout (the read operation's shape and the events' `object`), plus the
 * fields a merchant reconciles with. Amounts are decimal strings in major units.
 */
export function payoutObject(payout: Payout) {
  return {
    id: payout.id,
    object: 'payout' as const,
    status: payout.status,
    rail: payout.rail,
    amount: toMajor(payout.amount, payout.currency),
    currency: payout.currency.toLowerCase(),
    recipientId: payout.recipientId,
    destinationMasked: { ...payout.destinationMasked },
    providerRef: payout.providerRef,
    settledAt: payout.settledAt?.toISOString() ?? null,
    quote: {
      dstAmount: toMajor(payout.dstAmount, payout.destinationCurrency),
      rate: payout.rate,
      serviceFee: toMajor(payout.serviceFee, payout.currency),
      serviceFeeCurrency: payout.currency.toLowerCase(),
      currency: payout.destinationCurrency.toLowerCase(),
      country: payout.country,
    },
    failureReason: payout.failureReason,
    reference: payout.reference,
    metadata: payout.metadata,
    batchId: payout.batchId,
    livemode: payout.livemode,
    createdAt: payout.createdAt.toISOString(),
    updatedAt: payout.updatedAt.toISOString(),
  };
}

export type PayoutObject = ReturnType<typeof payoutObject>;

export const payoutEventData = (payout: Payout) => ({ object: payoutObject(payout), livemode: payout.livemode });

/** The event of the status a payout has just reached. */
export const PAYOUT_EVENT_OF_STATUS = {
  CREATED: PayoutEvent.INITIATED,
  SUBMITTED: PayoutEvent.SUBMITTED,
  SETTLED: PayoutEvent.SETTLED,
  FAILED: PayoutEvent.FAILED,
  CANCELLED: PayoutEvent.CANCELLED,
  PENDING_REVIEW: PayoutEvent.REVIEW,
} as const;

/** A status change of a payout made by `move` (the rail's report, cancel, review), told in its transaction. */
export interface PayoutMoved {
  payout: Payout;
}

declare module '../shared/domain-events' {
  interface DomainEvents {
    'payout.moved': PayoutMoved;
  }
}
