import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A message the sandbox mailbox kept instead of sending it (read with `tessera mail`). */
@Entity('sandbox_mail')
@Index('ix_sandbox_mail_recipient', ['recipient', 'createdAt'])
export class SandboxMail {
  @PrimaryGeneratedColumn('uuid') id: string;

  /** Lower-cased. */
  @Column('text') recipient: string;

  @Column('text') subject: string;

  @Column('text') text: string;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
