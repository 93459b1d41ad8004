import { Column, Entity, Index } from 'typeorm';
import { bigintTransformer } from '../shared/money';
import { MutableTenantEntity } from '../shared/tenancy';
import { RecurringInterval } from '../checkout';

/** ACTIVE: charged every interval. PAUSED: after too many consecutive failures (or resumed later). CANCELLED: final. */
export enum RecurringGiftStatus {
  ACTIVE = 'ACTIVE',
  PAUSED = 'PAUSED',
  CANCELLED = 'CANCELLED',
}

/** A payer's standing gift on a payment link: the saved card is charged the link's amount every interval. */
@Entity('recurring_gifts')
@Index('ix_recurring_gifts_business_mode_created', ['businessId', 'livemode', 'createdAt'])
@Index('ix_recurring_gifts_link', ['paymentLinkId', 'createdAt'])
export class RecurringGift extends MutableTenantEntity {
  @Column('uuid') paymentLinkId: string;
  /** The session whose payment started the gift (its first gift). */
  @Column('uuid') checkoutSessionId: string;
  @Column('uuid') customerId: string;
  @Column('uuid') paymentMethodId: string;
  @Column('text') email: string;

  @Column('bigint', { transformer: bigintTransformer }) amount: bigint;
  @Column('text') currency: string;
  @Column('text') interval: RecurringInterval;

  @Column({
    type: 'enum',
    enum: RecurringGiftStatus,
    enumName: 'recurring_gift_status',
    default: RecurringGiftStatus.ACTIVE,
  })
  status: RecurringGiftStatus;

  /** When the next charge is due; null unless ACTIVE. */
  @Column('timestamptz', { nullable: true }) nextChargeAt: Date | null;
  /** Successful recurring charges so far (the first gift, paid on the page, is not counted). */
  @Column('integer', { default: 0 }) chargeCount: number;
  /** Consecutive failed charges; reset by a success or a resume. */
  @Column('integer', { default: 0 }) failureCount: number;

  @Column('timestamptz', { nullable: true }) lastChargeAt: Date | null;
  @Column('uuid', { nullable: true }) lastPaymentId: string | null;
  @Column('text', { nullable: true }) lastError: string | null;
  /** While a charge is in progress: a concurrent charge of the same gift is skipped. */
  @Column('timestamptz', { nullable: true }) claimedUntil: Date | null;

  @Column('timestamptz', { nullable: true }) pausedAt: Date | null;
  @Column('timestamptz', { nullable: true }) cancelledAt: Date | null;
}
