import { Check, Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/** How a stored event ended: its handler's writes committed, or its type has no handler. */
export enum ProviderEventOutcome {
  APPLIED = 'applied',
  IGNORED = 'ignored',
}

/**
 * An event a provider sent to `POST /providers/<provider>/webhooks`, signature checked, stored once
 * per provider and event id (the inbox: a repeat is answered and neither stored nor applied again).
 * `appliedAt` is set in the transaction of its handler's writes.
 */
@Entity('provider_events')
@Unique('uq_provider_events_event', ['provider', 'eventId'])
@Check(
  'ck_provider_events_outcome',
  `"outcome" IN ('applied', 'ignored') AND "applied_at" IS NOT NULL OR "outcome" IS NULL AND "applied_at" IS NULL`,
)
@Index('ix_provider_events_unapplied', ['receivedAt'], { where: '"applied_at" IS NULL' })
export class ProviderEvent {
  @PrimaryGeneratedColumn('uuid') id: string;

  /** The provider's name, as in its webhook URL (`stripe`). */
  @Column('text') provider: string;

  /** The provider's id of the event (Stripe's `evt_…`). */
  @Column('text', { name: 'event_id' }) eventId: string;

  @Column('text') type: string;

  /** Sent by the provider's live account, not its test one. */
  @Column('boolean') livemode: boolean;

  /** The event as the provider sent it. */
  @Column('jsonb') payload: Record<string, unknown>;

  @Column('timestamptz', { name: 'received_at', default: () => 'now()' }) receivedAt: Date;

  /** When its handler's writes committed, or it was found to have no handler; null until then. */
  @Column('timestamptz', { name: 'applied_at', nullable: true }) appliedAt: Date | null;

  @Column('text', { nullable: true }) outcome: ProviderEventOutcome | null;

  /** Tries of its handler, failed ones included. */
  @Column('integer', { default: 0 }) attempts: number;

  /** The last failure of its handler (kept after a later try succeeds). */
  @Column('text', { name: 'last_error', nullable: true }) lastError: string | null;
}
