import { Column, Entity, Index } from 'typeorm';
import { MutableTenantEntity, TenantEntity } from '../shared/tenancy';
import { bigintTransformer } from '../shared/money';

/** How money reaches a recipient (design section 8). */
export enum PayoutRailKind {
  LOCAL_BANK = 'LOCAL_BANK',
  MOBILE_MONEY = 'MOBILE_MONEY',
  CRYPTO = 'CRYPTO',
}

/** The documented payout statuses (interface document, Business payout status). */
export enum PayoutStatus {
  CREATED = 'CREATED',
  SUBMITTED = 'SUBMITTED',
  SETTLED = 'SETTLED',
  FAILED = 'FAILED',
  CANCELLED = 'CANCELLED',
  PENDING_REVIEW = 'PENDING_REVIEW',
}

/**
 * Account details as shown: the last 4 characters of account numbers, phones and addresses only.
 * `accountNumber` / `phone` / `address` are masked; the other fields are as given.
 */
export type MaskedDetails = Record<string, string>;

/**
 * A saved payout destination of a business and mode. The full account details are sealed with
 * the master key (they are needed only to submit a payout to the rail); `destinationKey` is a
 * keyed digest of the rail and its normalised account fields, unique per business and mode, so
 * the same destination is one recipient even under concurrent creates.
 */
@Entity('payout_recipients')
@Index('uq_payout_recipients_destination', ['businessId', 'livemode', 'destinationKey'], { unique: true })
@Index('ix_payout_recipients_business_mode_created', ['businessId', 'livemode', 'createdAt'])
export class Recipient extends MutableTenantEntity {
  @Column('text') label: string;
  @Column({ type: 'enum', enum: PayoutRailKind, enumName: 'payout_rail' }) rail: PayoutRailKind;
  /** The destination's currency (the currency the recipient receives). */
  @Column('text') currency: string;
  /** ISO 3166-1 alpha-2 of a bank or mobile-money destination; null for crypto. */
  @Column('text', { nullable: true }) country: string | null;
  @Column('text') destinationKey: string;
  @Column('text') detailsSealed: string;
  @Column('jsonb') detailsMasked: MaskedDetails;
  /** When a dashboard create screened the recipient clean; null when never screened (API-key creates). */
  @Column('timestamptz', { nullable: true }) screenedAt: Date | null;
  @Column('timestamptz', { nullable: true }) archivedAt: Date | null;
}

/**
 * A conversion offered for 5 minutes: `amount` of the source (wallet) currency becomes `dstAmount`
 * of the destination currency at `rate`, for `serviceFee` in the source currency. Used by at most
 * one payout (the payout's quote id is unique).
 */
@Entity('payout_quotes')
export class PayoutQuote extends TenantEntity {
  @Column('bigint', { transformer: bigintTransformer }) amount: bigint;
  @Column('text') currency: string;
  @Column('text') destinationCurrency: string;
  @Column('bigint', { transformer: bigintTransformer }) dstAmount: bigint;
  /** Destination units per source unit, spread included, as a decimal string with 8 digits after the point. */
  @Column('text') rate: string;
  @Column('bigint', { transformer: bigintTransformer }) serviceFee: bigint;
  /** '' for crypto destinations. */
  @Column('text') country: string;
  @Column({ type: 'enum', enum: PayoutRailKind, enumName: 'payout_rail' }) rail: PayoutRailKind;
  @Column('timestamptz') expiresAt: Date;
}

/** The destination as the payout shows it: country, masked account number, bank name (network or chain for other rails). */
export interface DestinationMasked {
  country: string;
  accountNumber: string;
  bankName: string;
}

/**
 * Money going out of a merchant wallet to a recipient. Created with the wallet debited (amount +
 * service fee) in the same transaction; a failure or cancellation reverses that debit once.
 */
@Entity('payouts')
@Index('ix_payouts_business_mode_created', ['businessId', 'livemode', 'createdAt'])
@Index('ix_payouts_recipient_created', ['recipientId', 'createdAt'])
@Index('ix_payouts_batch_created', ['batchId', 'createdAt'])
@Index('uq_payouts_quote', ['quoteId'], { unique: true, where: '"quote_id" IS NOT NULL' })
export class Payout extends MutableTenantEntity {
  @Column('uuid') recipientId: string;
  @Column('uuid', { nullable: true }) batchId: string | null;
  @Column('uuid', { nullable: true }) quoteId: string | null;
  @Column({ type: 'enum', enum: PayoutRailKind, enumName: 'payout_rail' }) rail: PayoutRailKind;
  @Column({ type: 'enum', enum: PayoutStatus, enumName: 'payout_status', default: PayoutStatus.CREATED })
  status: PayoutStatus;
  /** Debited from the wallet in `currency` (minor units), before the fee. */
  @Column('bigint', { transformer: bigintTransformer }) amount: bigint;
  @Column('text') currency: string;
  @Column('bigint', { transformer: bigintTransformer }) serviceFee: bigint;
  @Column('bigint', { transformer: bigintTransformer }) dstAmount: bigint;
  @Column('text') destinationCurrency: string;
  @Column('text') rate: string;
  @Column('text') country: string;
  @Column('jsonb') destinationMasked: DestinationMasked;
  @Column('text', { nullable: true }) reference: string | null;
  @Column('jsonb', { nullable: true }) metadata: Record<string, unknown> | null;
  @Column('text', { nullable: true }) providerRef: string | null;
  @Column('text', { nullable: true }) failureReason: string | null;
  @Column('timestamptz', { nullable: true }) submittedAt: Date | null;
  @Column('timestamptz', { nullable: true }) settledAt: Date | null;
  /** The dashboard user who approved or rejected a held payout. */
  @Column('uuid', { nullable: true }) reviewedBy: string | null;
  @Column('timestamptz', { nullable: true }) reviewedAt: Date | null;
}

/** A set of payouts created together, all or none; its status and counts follow its payouts. */
@Entity('payout_batches')
@Index('ix_payout_batches_business_mode_created', ['businessId', 'livemode', 'createdAt'])
export class PayoutBatch extends MutableTenantEntity {
  @Column('text', { nullable: true }) name: string | null;
  @Column('integer') itemCount: number;
  /** Sum of the items' amounts (fees not included), minor units of `currency`. */
  @Column('bigint', { transformer: bigintTransformer }) totalAmount: bigint;
  @Column('text') currency: string;
}
