import { EventService } from '../events/event.service';
import { PaymentSource, PaymentStatus } from '../payments';
import { RequestContext } from '../shared/context';
import { CheckoutLockReason, CheckoutSession } from './checkout-session.entity';
import { checkoutSessionTransition } from './checkout-session.states';
import { sessionLocked } from './checkout.events';

/**
 * Failed payment attempts allowed before a session is LOCKED (card testing): per session (its
 * lifetime), and within `windowSeconds` per payment link (or invoice: all the sessions it opened)
 * and per card fingerprint at the business.
 */
export interface CheckoutAttemptLimits {
  perSession: number;
  perSource: number;
  perCard: number;
  windowSeconds: number;
}

/** The limit a session reached: which one, how many failed attempts it counted, and the limit. */
export interface LimitReached {
  reason: CheckoutLockReason;
  failedAttempts: number;
  limit: number;
}

/**
 * The hosted page's defence against card testing: a session whose failed attempts (of its own,
 * of its payment link or invoice, or of the card at the business) reach a limit is LOCKED for good.
 */
export class CardTestingGuard {
  constructor(
    private readonly limits: CheckoutAttemptLimits,
    private readonly events: EventService,
    /** Told, in the same transaction, of every session this guard locks. */
    private readonly onLocked: (tx: RequestContext, session: CheckoutSession) => Promise<void> = async () => undefined,
  ) {}

  /**
   * The first failed-attempt limit the session has reached, counting failed payments (declined,
   * blocked, failed 3-D Secure): of the session, ever; of all the sessions of its payment link or
   * invoice, and of the card at the business, within the window. Null: attempts may go on.
   */
  async limitReached(
    tx: RequestContext,
    session: CheckoutSession,
    fingerprint: string | null,
  ): Promise<LimitReached | null> {
    const limits = this.limits;
    const [counts]: Array<{ session: number; source: number; card: number }> = await tx.em.query(
      `SELECT
         (SELECT count(*) FROM payments p WHERE p.source_id = $1 AND p.source = $2 AND p.status = $3)::int AS session,
         CASE WHEN $4::uuid IS NULL THEN 0 ELSE (
           SELECT count(*) FROM checkout_sessions s JOIN payments p ON p.source_id = s.id AND p.source = $2
            WHERE s.source_id = $4 AND s.business_id = $5 AND p.status = $3 AND p.created_at > now() - make_interval(secs => $6)
         ) END::int AS source,
         CASE WHEN $7::text IS NULL THEN 0 ELSE (
           SELECT count(*) FROM payments p
            WHERE p.livemode = $8 AND p.card_fingerprint = $7 AND p.business_id = $5 AND p.status = $3 AND p.created_at > now() - make_interval(secs => $6)
         ) END::int AS card`,
      [
        session.id,
        PaymentSource.CHECKOUT_SESSION,
        PaymentStatus.FAILED,
        session.sourceId,
        session.businessId,
        limits.windowSeconds,
        fingerprint,
        session.livemode,
      ],
    );
    if (counts.session >= limits.perSession)
      return { reason: CheckoutLockReason.SESSION, failedAttempts: counts.session, limit: limits.perSession };
    if (counts.source >= limits.perSource)
      return { reason: CheckoutLockReason.SOURCE, failedAttempts: counts.source, limit: limits.perSource };
    if (counts.card >= limits.perCard)
      return { reason: CheckoutLockReason.CARD, failedAttempts: counts.card, limit: limits.perCard };
    return null;
  }

  /** Locks the session for good (it refuses every further attempt) and records `checkout.session.locked`. */
  async lockOut(tx: RequestContext, session: CheckoutSession, reached: LimitReached): Promise<void> {
    session.status = checkoutSessionTransition(session.status, 'lock');
    session.lockedAt = new Date();
    session.lockReason = reached.reason;
    session.claimedUntil = null;
    await tx.repo(CheckoutSession).save(session);
    const event = sessionLocked(session, reached, this.limits.windowSeconds);
    await this.events.record(tx, event.type, event.data);
    await this.onLocked(tx, session);
  }
}
