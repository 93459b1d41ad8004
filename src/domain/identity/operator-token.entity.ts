import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A token of the platform's operator for GraphQL's operator fields (`tessera_op_…`), issued and
 * revoked with `tessera operator-token`. Kept only as its SHA-256 hash, as API keys are
 * (`hashApiKey`), and looked up on every request: a revoked token is refused at once.
 */
@Entity('operator_tokens')
export class OperatorToken {
  @PrimaryGeneratedColumn('uuid') id: string;

  /** Who holds it (the operator's own label: a person, a tool). */
  @Column('text') name: string;

  @Index('uq_operator_tokens_token_hash', { unique: true })
  @Column('text')
  tokenHash: string;

  /** The first characters of the token, safe to display. */
  @Column('text') tokenHint: string;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;

  @Column('timestamptz', { nullable: true }) revokedAt: Date | null;
}
