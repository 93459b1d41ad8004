import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Payout } from './payout.entities';

/** The recipient of a `/v1` transfer as the transfer shows it: the account number masked to its last 4 characters. */
export interface V1TransferRecipient {
  name: string;
  sortCode: string;
  /** `****` and the last 4 characters. */
  accountNumber: string;
  country: string;
}

/**
 * What only `/v1` knows of one of its transfers; the transfer itself is the payout with the same
 * id (amounts, currencies, rate, fee, status, ledger postings, rail), under the payouts domain's
 * rules. The recipient is kept as this transfer named it (the payout recipient of the same
 * destination may carry the name an earlier transfer gave it).
 */
@Entity('v1_transfers')
export class V1Transfer {
  /** The payout's id. */
  @PrimaryColumn('uuid', { primaryKeyConstraintName: 'PK_v1_transfers' }) id: string;

  @ManyToOne(() => Payout, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id', foreignKeyConstraintName: 'FK_v1_transfers_payout' })
  payout?: Payout;

  @Column('uuid') businessId: string;
  @Column('boolean') livemode: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;

  @Column('jsonb') recipient: V1TransferRecipient;
}
