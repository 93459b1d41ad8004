import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/**
 * What only `/v1` knows of one of its payments; the payment itself is the checkout session with
 * the same id (source `v1`): amount, currency, description, metadata, redirect (successUrl),
 * status and expiry live there, under the checkout domain's rules. Kept by payments because
 * settlement reads its `settleIn`, and checkout builds on payments, not the reverse.
 */
@Entity('v1_payments')
@Index('ix_v1_payments_business_mode_created', ['businessId', 'livemode', 'createdAt'])
export class V1Payment {
  /** The checkout session's id. */
  @PrimaryColumn('uuid') id: string;

  // The session's entity is named, not imported: checkout imports payments, so payments does not import checkout.
  @ManyToOne('CheckoutSession', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id', foreignKeyConstraintName: 'FK_v1_payments_session' })
  session?: object;

  @Column('uuid') businessId: string;
  @Column('boolean') livemode: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;

  /** Upper-case currency the payment settles in. */
  @Column('text') settleIn: string;

  /** Receives this payment's `/v1` events, besides the business's webhook URL. */
  @Column('text', { nullable: true }) webhookUrl: string | null;
}
