import { Column, Entity, Index } from 'typeorm';
import { bigintTransformer } from '../shared/money';
import { MutableTenantEntity } from '../shared/tenancy';

/**
 * OPEN: can be paid. COMPLETED: paid (paymentId set), never again. EXPIRED: past expiresAt, or
 * withdrawn (voided invoice). LOCKED: too many failed payment attempts (of the session, its payment
 * link or the card); it refuses every further attempt.
 */
export enum CheckoutSessionStatus {
  OPEN = 'OPEN',
  COMPLETED = 'COMPLETED',
  EXPIRED = 'EXPIRED',
  LOCKED = 'LOCKED',
}

/** Which failed-attempt limit locked a session. */
export enum CheckoutLockReason {
  /** The session's own failed attempts. */
  SESSION = 'session',
  /** Failed attempts on all the sessions of its payment link (or invoice) within the window. */
  SOURCE = 'source',
  /** Failed payments of the card (by fingerprint) at the business within the window. */
  CARD = 'card',
}

/** What opened the session. */
export enum CheckoutSessionSource {
  API = 'api',
  PAYMENT_LINK = 'payment_link',
  INVOICE = 'invoice',
  /** A payment of the alternate surface (`POST /v1/payments`). */
  V1 = 'v1',
}

export type RecurringInterval = 'weekly' | 'monthly';

/** How a session may be paid: the card form, and the local rails of collections (design section 9). */
export enum CheckoutPaymentMethod {
  CARD = 'card',
  BANK = 'bank',
  MOMO = 'momo',
  EFT = 'eft',
}

/**
 * A hosted checkout session: one amount to be paid once on the hosted page, reached through the
 * unguessable `token` in its checkoutUrl (the token is the payer's only capability).
 */
@Entity('checkout_sessions')
@Index('uq_checkout_sessions_token', ['token'], { unique: true })
@Index('ix_checkout_sessions_business_mode_created', ['businessId', 'livemode', 'createdAt'])
@Index('ix_checkout_sessions_source', ['sourceId', 'createdAt'])
export class CheckoutSession extends MutableTenantEntity {
  /** `cs_test_…` / `cs_live_…`: 32 random bytes, the last path segment of checkoutUrl. */
  @Column('text') token: string;

  @Column({
    type: 'enum',
    enum: CheckoutSessionStatus,
    enumName: 'checkout_session_status',
    default: CheckoutSessionStatus.OPEN,
  })
  status: CheckoutSessionStatus;

  @Column('bigint', { transformer: bigintTransformer }) amount: bigint;
  /** Upper-case ISO code; lower-cased at the REST edge. */
  @Column('text') currency: string;

  /** Lower-cased; null when the page asks the payer for it. */
  @Column('text', { nullable: true }) customerEmail: string | null;

  /** Where the payer goes once paid; null: Tessera's own receipt page. */
  @Column('text', { nullable: true }) successUrl: string | null;
  @Column('text', { nullable: true }) cancelUrl: string | null;
  @Column('text', { nullable: true }) description: string | null;
  @Column('jsonb', { nullable: true }) metadata: Record<string, unknown> | null;

  @Column('text', { default: CheckoutSessionSource.API }) source: CheckoutSessionSource;
  /** The payment link or invoice that opened the session. */
  @Column('uuid', { nullable: true }) sourceId: string | null;

  /** Set when the payer may opt in to a recurring gift (sessions of a link that allows it). */
  @Column('text', { nullable: true }) recurringInterval: RecurringInterval | null;
  /** The payer opted in to the recurring gift on the page. */
  @Column('boolean', { default: false }) recurringOptIn: boolean;

  /** What the hosted page offers: `card` and/or local rails (bank, momo, eft). */
  @Column('text', { array: true, default: () => "'{card}'" }) paymentMethods: CheckoutPaymentMethod[];
  /** The collection that paid the session (a local rail), when not a card payment. */
  @Column('uuid', { nullable: true }) collectionId: string | null;

  /** The payment that paid the session. */
  @Column('uuid', { nullable: true }) paymentId: string | null;
  /** The latest payment attempt (failed, waiting for 3-D Secure, or the one that paid). */
  @Column('uuid', { nullable: true }) attemptPaymentId: string | null;
  /** While a submit is charging the card: another submit waits instead of charging twice. */
  @Column('timestamptz', { nullable: true }) claimedUntil: Date | null;

  /** When and why a failed-attempt limit locked the session (status LOCKED). */
  @Column('timestamptz', { nullable: true }) lockedAt: Date | null;
  @Column('text', { nullable: true }) lockReason: CheckoutLockReason | null;

  @Column('timestamptz') expiresAt: Date;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
}
