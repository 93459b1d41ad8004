import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { bigintTransformer } from './money';

/** Settings a business keeps separately for test and live mode. */
@Entity('business_settings')
@Index('uq_business_settings_mode', ['businessId', 'livemode'], { unique: true })
export class BusinessSettings {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('uuid') businessId: string;

  // Named, not imported: the kernel knows a business only by its id (identity owns the entity).
  @ManyToOne('Business', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: unknown;

  @Column('boolean') livemode: boolean;

  @Column('text', { nullable: true }) webhookUrl: string | null;

  /** The `/v1` webhook URL of the mode (set through `/v1`'s settings): `/v1` events go there, never to `webhookUrl`. */
  @Column('text', { nullable: true }) v1WebhookUrl: string | null;

  /** Server-to-server card charging (POST /business/payment/charge); off until an operator, or an OWNER in test mode, turns it on. */
  @Column('boolean', { default: false }) serverToServerCharging: boolean;

  /** Card fee schedule: basis points of the amount plus a fixed fee in minor units of the payment's currency. */
  @Column('integer', { default: 290 }) cardFeeBps: number;
  @Column('bigint', { default: 30, transformer: bigintTransformer }) cardFeeFixedMinor: bigint;

  /** Non-refundable fee taken when a dispute opens, in minor units of the payment's currency. */
  @Column('bigint', { default: 1500, transformer: bigintTransformer }) disputeFeeMinor: bigint;

  /** Payouts worth at least this many US cents are held for review (PENDING_REVIEW); null: no threshold. */
  @Column('bigint', { nullable: true, transformer: bigintTransformer }) payoutReviewThresholdUsdMinor: bigint | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
