import { DomainEvent, EventNameOf } from '../events/catalog';
import { toMajor } from '../shared/money';
import { Payment } from '../payments';
import { CheckoutLockReason, CheckoutPaymentMethod, CheckoutSession } from './checkout-session.entity';

/** The events checkout sessions record (docs/webhooks.md). */
export const CheckoutEvents = {
  /** A session was paid (the documented name keeps its payment-link prefix for every source). */
  SESSION_COMPLETED: 'payment_link.session.completed',
  /** A failed-attempt limit locked a session (card testing). */
  SESSION_LOCKED: 'checkout.session.locked',
} as const;
export type CheckoutEventType = EventNameOf<typeof CheckoutEvents>;

export type CheckoutEvent = DomainEvent<CheckoutEventType>;

const sessionFacts = (session: CheckoutSession) => ({
  sessionId: session.id,
  source: session.source,
  sourceId: session.sourceId,
  status: session.status,
});

/** `paymentId` when a card paid the session; null with `collectionId` when a local rail did. */
export const sessionCompleted = (
  session: CheckoutSession,
  paid: { paymentId: string | null; collectionId?: string | null },
): CheckoutEvent => ({
  type: CheckoutEvents.SESSION_COMPLETED,
  data: {
    ...sessionFacts(session),
    amount: toMajor(session.amount, session.currency),
    currency: session.currency.toLowerCase(),
    paymentId: paid.paymentId,
    ...(paid.collectionId ? { collectionId: paid.collectionId } : {}),
  },
});

export const sessionLocked = (
  session: CheckoutSession,
  reached: { reason: CheckoutLockReason; failedAttempts: number; limit: number },
  windowSeconds: number,
): CheckoutEvent => ({
  type: CheckoutEvents.SESSION_LOCKED,
  data: {
    ...sessionFacts(session),
    reason: reached.reason,
    failedAttempts: reached.failedAttempts,
    limit: reached.limit,
    windowSeconds: reached.reason === CheckoutLockReason.SESSION ? null : windowSeconds,
  },
});

/** A session was paid by a card, told in the transaction that completes it (its source's product: invoice paid, gift started). */
export interface SessionCompleted {
  session: CheckoutSession;
  payment: Payment;
}

/** A session left OPEN for good (COMPLETED, EXPIRED or LOCKED), told in the transaction that moved it. */
export interface SessionEnded {
  session: CheckoutSession;
}

/** A session is asked to offer local rails (before it is opened): a subscriber that cannot collect them refuses (422). */
export interface LocalRailsOffered {
  currency: string;
  rails: CheckoutPaymentMethod[];
}

declare module '../shared/domain-events' {
  interface DomainEvents {
    'checkout.session-completed': SessionCompleted;
    'checkout.session-ended': SessionEnded;
    'checkout.local-rails-offered': LocalRailsOffered;
  }
}
