import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Business } from '../identity';
import { bigintTransformer } from '../shared/money';

/**
 * The low-balance threshold of a business's wallet in one currency and mode: a debit that takes
 * the balance from at-or-above it to below it emits `wallet.low_balance` (docs/alt-v1.md).
 */
@Entity('wallet_low_balance_thresholds')
export class WalletLowBalanceThreshold {
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'PK_wallet_low_balance_thresholds' }) businessId: string;

  @ManyToOne(() => Business, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id', foreignKeyConstraintName: 'FK_wallet_low_balance_thresholds_business' })
  business?: Business;

  @PrimaryColumn('boolean', { primaryKeyConstraintName: 'PK_wallet_low_balance_thresholds' }) livemode: boolean;
  /** Upper-case currency of the wallet. */
  @PrimaryColumn('text', { primaryKeyConstraintName: 'PK_wallet_low_balance_thresholds' }) currency: string;
  /** Minor units of `currency`. */
  @Column('bigint', { transformer: bigintTransformer }) threshold: bigint;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
