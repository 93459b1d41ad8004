import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A sign-up waiting for the code emailed to its address (SignUpService). One is stored for every
 * accepted `signUp`, also for an address that already has an account: that one has no code
 * (`codeHash` null), so nothing can confirm it.
 */
@Entity('pending_sign_ups')
@Index('ix_pending_sign_ups_expires_at', ['expiresAt'])
export class PendingSignUp {
  @PrimaryGeneratedColumn('uuid') id: string;

  /** SHA-256 (hex) of the sign-up token handed to the caller; the token itself is never stored. */
  @Index('uq_pending_sign_ups_token_hash', { unique: true })
  @Column('text')
  tokenHash: string;

  /** Lower-cased. */
  @Column('text') email: string;

  @Column('text') passwordHash: string;

  @Column('text') name: string;

  @Column('text') businessName: string;

  /** HMAC-SHA256 of the 6-digit code keyed by the sign-up token; null when no code was sent. */
  @Column('text', { nullable: true }) codeHash: string | null;

  /** Confirmations tried; SIGN_UP_MAX_ATTEMPTS of them and the sign-up is void. */
  @Column('integer', { default: 0 }) attempts: number;

  @Column('timestamptz') expiresAt: Date;

  @Column('timestamptz', { nullable: true }) confirmedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
