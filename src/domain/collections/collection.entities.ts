import { Column, Entity, Index } from 'typeorm';
import { bigintTransformer } from '../shared/money';
import { MutableTenantEntity } from '../shared/tenancy';
import type { RailInstructions } from '../../providers/collection-rail/port';

/** The documented collection statuses (interface document, Collection status). */
export enum CollectionStatus {
  PENDING = 'pending',
  PROCESSING = 'processing',
  COMPLETED = 'completed',
  FAILED = 'failed',
  EXPIRED = 'expired',
}

/** How the payer pays (the channel's rail). */
export enum CollectionRailKind {
  BANK = 'bank',
  MOMO = 'momo',
  EFT = 'eft',
}

/** What opened the collection: the API, or a hosted checkout session that offers local rails. */
export enum CollectionSource {
  API = 'api',
  SESSION = 'session',
}

/** What the payer is told to do, by kind (interface document: Instruction kinds). */
export type CollectionInstructions =
  | { kind: 'bank_transfer'; bankName: string; accountNumber: string; accountName: string; reference: string | null }
  | { kind: 'momo_prompt'; phone: string; prompt: string }
  | { kind: 'hosted_page'; url: string; provider: string };

/** The payer as the merchant described them (every field optional, but momo needs phone and networkId). */
export interface CollectionCustomer {
  email: string | null;
  name: string | null;
  phone: string | null;
  networkId: string | null;
}

/**
 * Money coming in over a local rail (design section 9), settled to the business's USDC wallet.
 * The settlement columns are written by the transition to completed, in the transaction that
 * credits the wallet; before that they are null.
 */
@Entity('collections')
@Index('ix_collections_business_mode_created', ['businessId', 'livemode', 'createdAt'])
@Index('ix_collections_pending_expiry', ['businessId', 'livemode', 'expiresAt'], { where: `"status" = 'pending'` })
@Index('uq_collections_business_payment_id', ['businessId', 'livemode', 'businessPaymentId'], { unique: true })
@Index('uq_collections_hosted_token', ['hostedToken'], { unique: true })
@Index('uq_collections_session_open', ['checkoutSessionId', 'rail'], {
  unique: true,
  where: `"checkout_session_id" IS NOT NULL AND "status" IN ('pending', 'processing')`,
})
@Index('ix_collections_session', ['checkoutSessionId'], { where: '"checkout_session_id" IS NOT NULL' })
export class Collection extends MutableTenantEntity {
  @Column({ type: 'enum', enum: CollectionStatus, enumName: 'collection_status', default: CollectionStatus.PENDING })
  status: CollectionStatus;
  /** Minor units of `currency`. */
  @Column('bigint', { transformer: bigintTransformer }) amount: bigint;
  /** Upper-case ISO code; lower-cased at the edge. */
  @Column('text') currency: string;
  /** ISO 3166-1 alpha-2, upper-case. */
  @Column('text') country: string;
  @Column({ type: 'enum', enum: CollectionRailKind, enumName: 'collection_rail' }) rail: CollectionRailKind;
  @Column('text') provider: string;
  /** The provider's own channel id; null when the provider gave none. */
  @Column('text', { nullable: true }) channelId: string | null;
  /** The operator network routed to: customer.networkId as sent. */
  @Column('text', { nullable: true }) networkId: string | null;
  @Column('jsonb') customer: CollectionCustomer;
  @Column('jsonb') instructions: CollectionInstructions;
  /** The rail's own instructions (for `hosted_page`: the account and reference Tessera's page shows). */
  @Column('jsonb') railInstructions: RailInstructions;
  @Column('jsonb', { nullable: true }) metadata: Record<string, unknown> | null;
  /** The merchant's reference of the payment (given, or `bp_…` made by Tessera); unique per business and mode. */
  @Column('text') businessPaymentId: string;
  @Column('text') source: CollectionSource;
  @Column('uuid', { nullable: true }) checkoutSessionId: string | null;
  /** The capability in the URL of Tessera's instructions page (`hosted_page` instructions). */
  @Column('text') hostedToken: string;
  /** The rail's reference of the collection. */
  @Column('text', { nullable: true }) providerRef: string | null;
  @Column('timestamptz') expiresAt: Date;
  /** What the payer sent, as the rail reported it (minor units of `currency`). */
  @Column('bigint', { nullable: true, transformer: bigintTransformer }) amountReceived: bigint | null;
  @Column('text', { nullable: true }) failureReason: string | null;
  /** USDC per unit of `currency` at settlement (8 decimals). */
  @Column('text', { nullable: true }) settlementRate: string | null;
  /** USDC minor units (6 decimals): the converted amount, the collection fee, and what the wallet received. */
  @Column('bigint', { nullable: true, transformer: bigintTransformer }) settlementGross: bigint | null;
  @Column('bigint', { nullable: true, transformer: bigintTransformer }) settlementFee: bigint | null;
  @Column('bigint', { nullable: true, transformer: bigintTransformer }) settlementNet: bigint | null;
  @Column('timestamptz', { nullable: true }) processingAt: Date | null;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
  @Column('timestamptz', { nullable: true }) failedAt: Date | null;
  @Column('timestamptz', { nullable: true }) expiredAt: Date | null;
}
