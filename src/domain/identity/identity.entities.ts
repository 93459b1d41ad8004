import { Role } from '../shared/modes';
import type { BusinessSettings } from '../shared/business-settings.entity';
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

/** A dashboard account. */
@Entity('users')
export class User {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Index('uq_users_email', { unique: true })
  @Column('text')
  email: string;

  @Column('text') name: string;

  @Column('text') passwordHash: string;

  /** Failed sign-ins counted since `failedSignInsSince` (the window's start); see AuthService.signIn. */
  @Column('integer', { default: 0 }) failedSignIns: number;
  @Column('timestamptz', { nullable: true }) failedSignInsSince: Date | null;
  /** Until then every sign-in answers the generic failure, even with the right password. */
  @Column('timestamptz', { nullable: true }) signInLockedUntil: Date | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

/** The merchant (and, with `treasuryEnabled`, the treasury partner). */
@Entity('businesses')
export class Business {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('text') name: string;

  @Column('text') email: string;

  @Column('boolean', { default: false }) treasuryEnabled: boolean;

  /** Verified by the operator: only a verified business gets `/v1` keys and `/v1` access (design section 11). */
  @Column('boolean', { default: false }) verified: boolean;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

@Entity('memberships')
@Index('uq_memberships_user_business', ['userId', 'businessId'], { unique: true })
export class Membership {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('uuid') userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Index('ix_memberships_business')
  @Column('uuid')
  businessId: string;

  @ManyToOne(() => Business, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: Business;

  @Column({ type: 'enum', enum: Role, enumName: 'membership_role' }) role: Role;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

/**
 * One API key/secret pair per business and mode. The key is kept only as a SHA-256 hash;
 * the secret (also the webhook signing secret) is kept encrypted with AES-256-GCM.
 */
@Entity('api_credentials')
@Index('uq_api_credentials_business_mode', ['businessId', 'livemode'], { unique: true })
export class ApiCredential {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('uuid') businessId: string;

  @ManyToOne(() => Business, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: Business;

  @Column('boolean') livemode: boolean;

  @Index('uq_api_credentials_key_hash', { unique: true })
  @Column('text')
  keyHash: string;

  /** First characters of the key, safe to display ("bk_test_AbCd"). */
  @Column('text') keyHint: string;

  /** Bumped on every key regeneration; tokens carry it, so old tokens die with the old key. */
  @Column('integer', { default: 1 }) keyVersion: number;

  @Column('text') secretCiphertext: string;

  @Column('text') secretHint: string;

  /**
   * The browser-safe key (`pk_test_…`/`pk_live_…`): it only creates card tokens, so it is stored in
   * plain text and shown whenever asked. Regenerating the API key leaves it unchanged.
   */
  @Index('uq_api_credentials_publishable_key', { unique: true })
  @Column('text')
  publishableKey: string;

  @Column('timestamptz', { nullable: true }) lastUsedAt: Date | null;

  /** The business's settings of the credential's mode, when a query joined them (not a column). */
  settings?: BusinessSettings;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
