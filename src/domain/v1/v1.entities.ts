import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { CheckoutSession } from '../checkout/checkout-session.entity';
import { Business } from '../identity/identity.entities';

/**
 * A secret key of the alternate surface `/v1` (`tessera_test_sk_…` / `tessera_live_sk_…`), one
 * active per business and mode. Kept as a SHA-256 hash for the lookup of every request, and sealed
 * (AES-256-GCM with the master key) because `/v1` events are signed with the key itself.
 * Reissuing revokes the previous key at once (`revokedAt`).
 */
@Entity('v1_api_keys')
@Index('uq_v1_api_keys_active', ['businessId', 'livemode'], { unique: true, where: '"revoked_at" IS NULL' })
export class V1ApiKey {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('uuid') businessId: string;

  @ManyToOne(() => Business, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id', foreignKeyConstraintName: 'FK_v1_api_keys_business' })
  business?: Business;

  @Column('boolean') livemode: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;

  @Index('uq_v1_api_keys_key_hash', { unique: true })
  @Column('text')
  keyHash: string;

  /** The first characters of the key, safe to display. */
  @Column('text') keyHint: string;

  @Column('text') keyCiphertext: string;

  @Column('timestamptz', { nullable: true }) revokedAt: Date | null;
}

/**
 * What only `/v1` knows of one of its payments; the payment itself is the checkout session with
 * the same id (source `v1`): amount, currency, description, metadata, redirect (successUrl),
 * status and expiry live there, under the checkout domain's rules.
 */
@Entity('v1_payments')
@Index('ix_v1_payments_business_mode_created', ['businessId', 'livemode', 'createdAt'])
export class V1Payment {
  /** The checkout session's id. */
  @PrimaryColumn('uuid') id: string;

  @ManyToOne(() => CheckoutSession, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id', foreignKeyConstraintName: 'FK_v1_payments_session' })
  session?: CheckoutSession;

  @Column('uuid') businessId: string;
  @Column('boolean') livemode: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;

  /** Upper-case currency the payment settles in. */
  @Column('text') settleIn: string;

  /** Receives this payment's `/v1` events, besides the business's webhook URL. */
  @Column('text', { nullable: true }) webhookUrl: string | null;
}
