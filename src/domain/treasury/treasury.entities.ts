import { Column, Entity, Index } from 'typeorm';
import { bigintTransformer } from '../shared/money';
import { MutableTenantEntity } from '../shared/tenancy';

/** An end-user's standing with the partner (design section 10): waits for KYC, then follows its outcome. */
export enum EndUserStatus {
  PENDING_KYC = 'pending_kyc',
  ACTIVE = 'active',
  REJECTED = 'rejected',
}

export enum KycStatus {
  PENDING = 'PENDING',
  APPROVED = 'APPROVED',
  REJECTED = 'REJECTED',
}

export enum KycLevel {
  BASIC = 'basic',
  FULL = 'full',
}

export enum TreasuryWalletStatus {
  ACTIVE = 'active',
}

export enum TreasuryPayoutStatus {
  PENDING = 'PENDING',
  PROCESSING = 'PROCESSING',
  COMPLETED = 'COMPLETED',
  FAILED = 'FAILED',
  CANCELLED = 'CANCELLED',
}

export enum TreasuryDestinationType {
  BANK_ACCOUNT = 'bank_account',
  CRYPTO = 'crypto',
  MOBILE_MONEY = 'mobile_money',
}

/**
 * A treasury partner's end-user (the partner is the business: `businessId`). `externalId` is the
 * partner's own id of the person, unique per partner and mode (a unique index, so two concurrent
 * creates cannot both win).
 */
@Entity('treasury_end_users')
@Index('uq_treasury_end_users_external_id', ['businessId', 'livemode', 'externalId'], { unique: true })
@Index('ix_treasury_end_users_business_mode_created', ['businessId', 'livemode', 'createdAt'])
export class TreasuryEndUser extends MutableTenantEntity {
  @Column('text') externalId: string;
  @Column('text') email: string;
  @Column('text', { nullable: true }) name: string | null;
  @Column('text', { nullable: true }) phone: string | null;
  @Column('jsonb', { nullable: true }) metadata: Record<string, unknown> | null;
  @Column({
    type: 'enum',
    enum: EndUserStatus,
    enumName: 'treasury_end_user_status',
    default: EndUserStatus.PENDING_KYC,
  })
  status: EndUserStatus;
}

/**
 * One identity check of an end-user. At most one PENDING check per end-user (a partial unique
 * index); the latest check is the end-user's KYC record. `hostedToken` is the capability of the
 * sandbox's hosted KYC page (`/kyc/<token>`).
 */
@Entity('treasury_kyc_checks')
@Index('uq_treasury_kyc_checks_pending', ['endUserId'], { unique: true, where: `"status" = 'PENDING'` })
@Index('ix_treasury_kyc_checks_end_user_created', ['endUserId', 'createdAt'])
@Index('uq_treasury_kyc_checks_hosted_token', ['hostedToken'], { unique: true })
export class TreasuryKycCheck extends MutableTenantEntity {
  @Column('uuid') endUserId: string;
  @Column({ type: 'enum', enum: KycLevel, enumName: 'treasury_kyc_level' }) level: KycLevel;
  @Column({ type: 'enum', enum: KycStatus, enumName: 'treasury_kyc_status', default: KycStatus.PENDING })
  status: KycStatus;
  @Column('text', { array: true, default: () => `'{}'` }) rejectionReasons: string[];
  @Column('text') provider: string;
  @Column('text') providerRef: string;
  @Column('text') hostedToken: string;
  @Column('text') kycLinkUrl: string;
  @Column('timestamptz', { nullable: true }) decidedAt: Date | null;
}

/**
 * Where money reaches a wallet from outside: a fiat virtual account or a chain address, issued by
 * the treasury rail when the wallet is opened (interface document, Wallet deposit instructions).
 */
export interface DepositAccount {
  accountNumber: string | null;
  routingNumber: string | null;
  iban: string | null;
  bankName: string | null;
  accountType: string | null;
  chain: string | null;
  address: string | null;
  /** The rail's own instructions (reference, scheme, beneficiary), shown as `depositInstructions`. */
  instructions: Record<string, string | null>;
  /** The rail's own ids of the account (never shown): how its deposits find the wallet, and its payouts their source. */
  providerRefs?: Record<string, string>;
}

/**
 * An end-user's wallet in one currency: its money is the END_USER_WALLET ledger account
 * `ledgerAccountId` (owner: the end-user), never the partner's own merchant wallet.
 */
@Entity('treasury_wallets')
@Index('uq_treasury_wallets_end_user_currency', ['endUserId', 'currency'], { unique: true })
@Index('ix_treasury_wallets_end_user_created', ['endUserId', 'createdAt'])
export class TreasuryWallet extends MutableTenantEntity {
  @Column('uuid') endUserId: string;
  @Column('text') currency: string;
  @Column('uuid') ledgerAccountId: string;
  @Column({
    type: 'enum',
    enum: TreasuryWalletStatus,
    enumName: 'treasury_wallet_status',
    default: TreasuryWalletStatus.ACTIVE,
  })
  status: TreasuryWalletStatus;
  @Column('jsonb') depositAccount: DepositAccount;
}

/** A wallet as read: the row and its balance from the ledger (minor units of its currency). */
export interface TreasuryWalletView {
  wallet: TreasuryWallet;
  balance: bigint;
}

/**
 * Money out of an end-user wallet. Created PENDING with the wallet debited (into payout in flight)
 * in the same transaction; FAILED and CANCELLED reverse that debit once. `destinationDetails` is
 * the destination as shown (account numbers, phones and addresses masked to their last 4); the
 * full destination is sealed with the master key, for the rail only.
 */
@Entity('treasury_payouts')
@Index('ix_treasury_payouts_business_mode_created', ['businessId', 'livemode', 'createdAt'])
@Index('ix_treasury_payouts_wallet_created', ['walletId', 'createdAt'])
export class TreasuryPayout extends MutableTenantEntity {
  @Column('uuid') endUserId: string;
  @Column('uuid') walletId: string;
  @Column('bigint', { transformer: bigintTransformer }) amount: bigint;
  @Column('text') currency: string;
  @Column({ type: 'enum', enum: TreasuryDestinationType, enumName: 'treasury_destination_type' })
  destinationType: TreasuryDestinationType;
  @Column('jsonb') destinationDetails: Record<string, string>;
  @Column('text') destinationSealed: string;
  @Column({
    type: 'enum',
    enum: TreasuryPayoutStatus,
    enumName: 'treasury_payout_status',
    default: TreasuryPayoutStatus.PENDING,
  })
  status: TreasuryPayoutStatus;
  @Column('jsonb', { nullable: true }) metadata: Record<string, unknown> | null;
  @Column('text', { nullable: true }) failureReason: string | null;
  @Column('text', { nullable: true }) providerRef: string | null;
  @Column('timestamptz', { nullable: true }) processingAt: Date | null;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
}
