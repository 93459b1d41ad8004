import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A single-use card token made in the browser with a publishable key. Like a saved card it holds
 * only the acquirer's reference and what may be shown, never the number; it expires after 15
 * minutes and is consumed by the first charge or card attachment that uses it.
 */
@Entity('card_tokens')
@Index('ix_card_tokens_expires', ['expiresAt'])
export class CardToken {
  /** `tok_…` */
  @PrimaryColumn('text') id: string;

  @Column('uuid') businessId: string;
  @Column('boolean') livemode: boolean;

  @Column('text') providerRef: string;
  @Column('text') brand: string;
  @Column('text') last4: string;
  @Column('text') bin: string;
  @Column('smallint') expiryMonth: number;
  @Column('smallint') expiryYear: number;
  @Column('text') fingerprint: string;
  @Column('text') country: string;

  @Column('timestamptz') expiresAt: Date;
  @Column('timestamptz', { nullable: true }) usedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
