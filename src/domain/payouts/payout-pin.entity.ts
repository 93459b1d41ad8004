import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Business } from '../identity/identity.entities';

/**
 * The business's payout PIN, one for both modes (it guards the business's own money movements,
 * whichever credential mode schedules them). Kept only as a scrypt hash, like passwords.
 */
@Entity('payout_pins')
export class PayoutPin {
  @PrimaryColumn('uuid') businessId: string;

  @ManyToOne(() => Business, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: Business;

  @Column('text') pinHash: string;

  /** Consecutive wrong PINs since the last right one (or the last lock). */
  @Column('integer', { default: 0 }) failedAttempts: number;

  /** Until then every check answers PIN_LOCKED, even with the right PIN. */
  @Column('timestamptz', { nullable: true }) lockedUntil: Date | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;

  /**
   * When the PIN was last set or changed. Set explicitly (not an UpdateDateColumn): counting a
   * wrong PIN or a lock is not a change of the PIN, and the status reports this date.
   */
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
