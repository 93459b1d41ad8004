import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Business } from './identity.entities';

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
