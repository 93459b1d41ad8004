import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export enum IdempotencyState {
  IN_FLIGHT = 'in_flight',
  COMPLETED = 'completed',
}

/** A stored POST response, replayed for the same `Idempotency-Key` within its lifetime. */
@Entity('idempotency_keys')
@Index('uq_idempotency_keys_scope_key', ['scope', 'key'], { unique: true })
export class IdempotencyRecord {
  @PrimaryGeneratedColumn('uuid') id: string;

  /** Who may replay it: a credential, a dashboard user in a business and mode, or an anonymous path. */
  @Column('text') scope: string;

  @Column('text') key: string;

  @Column('text') method: string;

  @Column('text') path: string;

  /** SHA-256 of method, path and body; a different request under the same key is refused. */
  @Column('text') requestHash: string;

  @Column({ type: 'enum', enum: IdempotencyState, enumName: 'idempotency_state' }) state: IdempotencyState;

  @Column('integer', { nullable: true }) responseStatus: number | null;

  @Column('text', { nullable: true }) responseBody: string | null;

  @Column('text', { nullable: true }) responseContentType: string | null;

  /**
   * Until when the request holding an in-flight key is taken to be alive; a retry after it may take
   * the key over (IdempotencyService.begin says how).
   */
  @Column('timestamptz') leasedUntil: Date;

  /** When a transaction of the request first committed a change: from then on the request is never run again from the start. */
  @Column('timestamptz', { nullable: true }) effectsAt: Date | null;

  /** What the request made that a retry can answer from (a payment), recorded in the transaction that made it. */
  @Column('text', { nullable: true }) resourceType: string | null;

  @Column('uuid', { nullable: true }) resourceId: string | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;

  @Index('ix_idempotency_keys_expires')
  @Column('timestamptz')
  expiresAt: Date;
}
