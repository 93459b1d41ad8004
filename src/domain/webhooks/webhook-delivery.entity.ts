import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { MutableTenantEntity } from '../shared/tenancy';
import { DomainEvent } from '../events/event.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';

/**
 * pending: enqueued, not attempted yet. succeeded: an attempt got a 2xx in time.
 * failed: the last attempt failed and another is scheduled (`nextRetryAt`).
 * permanently_failed: every attempt of the schedule failed; only a manual redelivery sends it again.
 */
export enum WebhookDeliveryStatus {
  PENDING = 'pending',
  SUCCEEDED = 'succeeded',
  FAILED = 'failed',
  PERMANENTLY_FAILED = 'permanently_failed',
}

/**
 * What a delivery was addressed to: the business's own webhookUrl of the mode, or a registered
 * endpoint (merchant or treasury). Kept apart from `endpointId`, which becomes null when an
 * endpoint is deleted, so a deleted endpoint's deliveries never pass for the webhookUrl's.
 */
export enum WebhookDeliveryTarget {
  WEBHOOK_URL = 'webhook_url',
  ENDPOINT = 'endpoint',
  /**
   * An event of the alternate surface `/v1` (design section 11), to a payment's own `webhook_url`
   * or the business's webhook URL: signed with the business's `/v1` key in `Service-Signature`.
   */
  V1 = 'v1',
}

/** The `{ event, timestamp, data }` body a delivery POSTs. */
export interface WebhookPayload {
  event: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** One event on its way to one URL, with the outcome of its latest attempt. */
@Entity('webhook_deliveries')
@Index('ix_webhook_deliveries_business_mode_created', ['businessId', 'livemode', 'createdAt'])
@Index('ix_webhook_deliveries_endpoint_created', ['endpointId', 'createdAt'])
@Index('ix_webhook_deliveries_webhook_url_created', ['businessId', 'livemode', 'createdAt'], {
  where: `"target" = 'webhook_url'`,
})
export class WebhookDelivery extends MutableTenantEntity {
  @Index('ix_webhook_deliveries_event')
  @Column('uuid')
  eventId: string;

  @ManyToOne(() => DomainEvent)
  @JoinColumn({ name: 'event_id' })
  event?: DomainEvent;

  @Column('text') eventType: string;

  @Column('text') target: WebhookDeliveryTarget;

  /** The registered endpoint it goes to; null for the business's own webhookUrl (or a deleted endpoint). */
  @Column('uuid', { nullable: true }) endpointId: string | null;

  @ManyToOne(() => WebhookEndpoint, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'endpoint_id' })
  endpoint?: WebhookEndpoint | null;

  /**
   * The treasury partner (its business id) when the delivery goes to a treasury endpoint, else null.
   * Such a delivery is signed only with its endpoint's own secret.
   */
  @Column('uuid', { nullable: true }) partnerId: string | null;

  /** The URL as configured when the event was recorded. */
  @Column('text') url: string;

  /** The body as an object (jsonb: its key order is not kept; `requestBody` has the bytes). */
  @Column('jsonb') payload: WebhookPayload;

  /**
   * The exact body every attempt POSTs and signs (UTF-8 JSON text), written once when the delivery
   * is created, so a receiver can verify a signature against the delivery as listed.
   */
  @Column('text') requestBody: string;

  /** The headers of the latest attempt's request, signatures included; null before the first attempt and when the latest one sent nothing. */
  @Column('jsonb', { nullable: true }) requestHeaders: Record<string, string> | null;

  @Column({
    type: 'enum',
    enum: WebhookDeliveryStatus,
    enumName: 'webhook_delivery_status',
    default: WebhookDeliveryStatus.PENDING,
  })
  status: WebhookDeliveryStatus;

  @Column('integer', { default: 0 }) attemptCount: number;

  @Column('timestamptz', { nullable: true }) lastAttemptAt: Date | null;

  @Column('timestamptz', { nullable: true }) nextRetryAt: Date | null;

  @Column('integer', { nullable: true }) responseStatus: number | null;

  /** The first 2 KB of the latest response body. */
  @Column('text', { nullable: true }) responseBody: string | null;

  @Column('integer', { nullable: true }) responseTimeMs: number | null;

  @Column('text', { nullable: true }) errorMessage: string | null;

  /**
   * When the next attempt is due: now for a new delivery (the column's default), the retry's time
   * after a failure, null once none is (succeeded, permanently failed). Workers' delivery pumps
   * claim due rows (src/domain/webhooks/delivery-pump.ts).
   */
  @Index('ix_webhook_deliveries_due', { where: '"due_at" IS NOT NULL' })
  @Column('timestamptz', { nullable: true, default: () => 'now()' })
  dueAt: Date | null;

  /**
   * When a pump claimed the delivery for its attempt (null when none holds it). A claim older than
   * the claiming pump's `JOB_STALL_AFTER_MS` belongs to a worker that died: the delivery is claimed again.
   */
  @Column('timestamptz', { nullable: true }) claimedAt: Date | null;
}
