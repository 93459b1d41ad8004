import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { MutableTenantEntity, TenantEntity } from '../shared/tenancy';
import { bigintTransformer } from '../shared/money';

/**
 * PENDING: created, the acquirer has not answered yet. REQUIRES_ACTION: waiting for 3-D Secure
 * authentication. COMPLETED: captured. SETTLED: funds credited to the merchant wallet minus fees.
 * FAILED: not captured (see failureReason). REFUNDED: refunded in full.
 */
export enum PaymentStatus {
  PENDING = 'PENDING',
  REQUIRES_ACTION = 'REQUIRES_ACTION',
  COMPLETED = 'COMPLETED',
  SETTLED = 'SETTLED',
  FAILED = 'FAILED',
  REFUNDED = 'REFUNDED',
}

/**
 * The statuses of a payment whose money was taken: captured, then perhaps settled or refunded
 * (partial refunds keep COMPLETED or SETTLED). A customer with such a payment "has paid".
 */
export const CAPTURED_PAYMENT_STATUSES: readonly PaymentStatus[] = [
  PaymentStatus.COMPLETED,
  PaymentStatus.SETTLED,
  PaymentStatus.REFUNDED,
];

/** The `reason` of payment.failed. */
export enum PaymentFailureReason {
  CARD_DECLINED = 'card_declined',
  INSUFFICIENT_FUNDS = 'insufficient_funds',
  AUTHENTICATION_FAILED = 'authentication_failed',
  BLOCKED = 'blocked',
  PROCESSING_ERROR = 'processing_error',
}

/** What created the payment. */
export enum PaymentSource {
  API = 'api',
  CHECKOUT_SESSION = 'checkout_session',
  PAYMENT_LINK = 'payment_link',
  INVOICE = 'invoice',
  RECURRING_GIFT = 'recurring_gift',
}

/** A card payment of one business and mode. Amounts are bigint minor units of `currency`. */
@Entity('payments')
@Index('ix_payments_acquirer_reference', ['acquirerReference'], { where: `"acquirer_reference" IS NOT NULL` })
@Index('ix_payments_business_mode_captured', ['businessId', 'livemode', 'capturedAt'], {
  where: `"captured_at" IS NOT NULL`,
})
@Index('ix_payments_business_mode_created', ['businessId', 'livemode', 'createdAt'])
@Index('ix_payments_business_mode_email', ['businessId', 'livemode', 'email'])
@Index('ix_payments_customer_created', ['customerId', 'createdAt'])
@Index('ix_payments_dedupe', ['businessId', 'livemode', 'dedupeKey', 'createdAt'])
@Index('ix_payments_fingerprint_created', ['livemode', 'cardFingerprint', 'createdAt'])
@Index('ix_payments_pending_created', ['createdAt'], { where: `"status" = 'PENDING'` })
@Index('ix_payments_source', ['sourceId', 'createdAt'])
export class Payment extends MutableTenantEntity {
  @Column('bigint', { transformer: bigintTransformer }) amount: bigint;

  /** Upper-case ISO code; lower-cased at the REST edge. */
  @Column('text') currency: string;

  @Column({ type: 'enum', enum: PaymentStatus, enumName: 'payment_status', default: PaymentStatus.PENDING })
  status: PaymentStatus;

  @Column('text', { nullable: true }) failureReason: PaymentFailureReason | null;
  @Column('text', { nullable: true }) failureMessage: string | null;

  /** Lower-cased payer email. */
  @Column('text') email: string;

  @Column('uuid', { nullable: true }) customerId: string | null;
  @Column('uuid', { nullable: true }) paymentMethodId: string | null;

  @Column('text') cardBrand: string;
  @Column('text') cardLast4: string;
  @Column('smallint') cardExpiryMonth: number;
  @Column('smallint') cardExpiryYear: number;
  @Column('text') cardFingerprint: string;
  @Column('text') cardCountry: string;
  /** The acquirer's reference to the card (never the number). */
  @Column('text') cardProviderRef: string;
  /** The acquirer's id of the payment (Stripe's PaymentIntent), once it answered; null from the sandbox. */
  @Column('text', { nullable: true }) acquirerReference: string | null;

  @Column({ type: 'text', default: PaymentSource.API }) source: PaymentSource;
  @Column('uuid', { nullable: true }) sourceId: string | null;

  /** SHA-256 of the charge parameters: the same request within 60 s returns this payment. */
  @Column('text', { nullable: true }) dedupeKey: string | null;

  /** Set when 3-D Secure was required: pending, succeeded or failed. */
  @Column('text', { nullable: true }) threeDSecure: string | null;

  /**
   * The acquirer's 3-D Secure page the payer is sent to (Stripe's), set when the payment waits for
   * it; null in the sandbox, whose challenge is Tessera's own page. Its return is Tessera's
   * `/3ds/return/<payment id>`.
   */
  @Column('text', { nullable: true }) authenticationUrl: string | null;

  @Column('text', { nullable: true }) ipAddress: string | null;
  @Column('jsonb', { nullable: true }) metadata: Record<string, unknown> | null;

  /** Fee kept at settlement. */
  @Column('bigint', { default: 0, transformer: bigintTransformer }) feeAmount: bigint;
  @Column('bigint', { default: 0, transformer: bigintTransformer }) amountRefunded: bigint;
  /** Charge amount taken back by an open or lost dispute. */
  @Column('bigint', { default: 0, transformer: bigintTransformer }) amountDisputed: bigint;

  @Column('timestamptz', { nullable: true }) capturedAt: Date | null;
  @Column('timestamptz', { nullable: true }) settledAt: Date | null;
}

@Entity('refunds')
@Index('ix_refunds_payment', ['paymentId', 'createdAt'])
export class Refund extends TenantEntity {
  @Column('uuid') paymentId: string;

  @Column('bigint', { transformer: bigintTransformer }) amount: bigint;
  @Column('text') currency: string;
  @Column('text', { nullable: true }) reason: string | null;
  /**
   * `succeeded` once booked (a sandbox refund at once); `pending` while an acquirer with references
   * has not answered (nothing booked, not shown); `failed` when the acquirer failed it afterwards
   * (its booking reversed).
   */
  @Column('text', { default: 'succeeded' }) status: string;
  /** The acquirer's id of the refund (Stripe's `re_…`); null for a refund booked in the ledger alone. */
  @Column('text', { nullable: true }) acquirerReference: string | null;
}

/** OPEN: amount and fee debited. WON: amount re-credited (not the fee). LOST: nothing further. */
export enum DisputeStatus {
  OPEN = 'OPEN',
  WON = 'WON',
  LOST = 'LOST',
}

@Entity('disputes')
@Index('ix_disputes_payment', ['paymentId', 'createdAt'])
@Index('ix_disputes_business_mode_created', ['businessId', 'livemode', 'createdAt'])
@Index('uq_disputes_acquirer_dispute', ['acquirerDisputeId'], {
  unique: true,
  where: '"acquirer_dispute_id" IS NOT NULL',
})
export class Dispute extends MutableTenantEntity {
  @Column('uuid') paymentId: string;

  @Column('bigint', { transformer: bigintTransformer }) amount: bigint;
  @Column('bigint', { transformer: bigintTransformer }) fee: bigint;
  @Column('text') currency: string;
  @Column('text') reason: string;

  @Column({ type: 'enum', enum: DisputeStatus, enumName: 'dispute_status', default: DisputeStatus.OPEN })
  status: DisputeStatus;

  @Column('timestamptz', { nullable: true }) resolvedAt: Date | null;

  /** The card acquirer's id of the dispute (Stripe's `du_…`/`dp_…`) when it reported it; null for a sandbox dispute. */
  @Column('text', { nullable: true }) acquirerDisputeId: string | null;
}

/**
 * The documented charge de-duplication ("the same parameters within 60 s return the same
 * payment"): per business and mode, when each set of charge parameters (the payment's dedupe key)
 * was last charged. A charge claims its key in the transaction that records its payment with one
 * INSERT ... ON CONFLICT; the primary key makes a concurrent identical charge wait for that
 * transaction and then see the claim. Claims past the window are purged (housekeeping).
 */
@Entity('charge_dedupe_claims')
@Index('ix_charge_dedupe_claims_claimed_at', ['claimedAt'])
export class ChargeDedupeClaim {
  @PrimaryColumn('uuid') businessId: string;
  @PrimaryColumn('boolean') livemode: boolean;
  @PrimaryColumn('text') dedupeKey: string;
  @Column('timestamptz') claimedAt: Date;
}
