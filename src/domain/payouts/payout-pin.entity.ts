import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Business } from '../identity';

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

/**
 * Wrong PINs of one credential of the business (an API key, or a member's dashboard sign-in): each
 * credential has its own count and lock, so one credential locks itself out before it can lock
 * out the business (issue 26, finding 8; docs/security.md, Payout PIN).
 */
@Entity('payout_pin_failures')
export class PayoutPinFailure {
  @PrimaryColumn('uuid') businessId: string;

  @ManyToOne(() => Business, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: Business;

  /** `api:<credential id>`, `user:<user id>` or `system:<name>` (pinCredentialOf). */
  @PrimaryColumn('text') credential: string;

  /** Consecutive wrong PINs of this credential since its last right one (or its last lock). */
  @Column('integer', { default: 0 }) failedAttempts: number;

  /** Until then this credential's checks answer PIN_LOCKED, even with the right PIN. */
  @Column('timestamptz', { nullable: true }) lockedUntil: Date | null;
}
