import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** The transactional outbox: a domain event written in the same transaction as the change. */
@Entity('events')
@Index('ix_events_business_mode_created', ['businessId', 'livemode', 'createdAt'])
// An expression index TypeORM cannot declare (migration 1796770000000): kept out of its schema comparison.
@Index('ix_events_payment', { synchronize: false })
export class DomainEvent {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('uuid') businessId: string;

  @Column('boolean') livemode: boolean;

  @Column('text') type: string;

  @Column('jsonb') data: Record<string, unknown>;

  /** When it was recorded (`clock_timestamp()`): the events of one transaction keep their order. */
  @CreateDateColumn({ type: 'timestamptz', default: () => 'clock_timestamp()' }) createdAt: Date;
}
