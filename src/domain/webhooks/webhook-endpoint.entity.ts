import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { Business } from '../identity';
import { MutableTenantEntity } from '../shared/tenancy';

/**
 * enabled: receives the events it subscribed to. disabled: kept (with its delivery history) but
 * receives nothing until it is enabled again; deliveries already enqueued still run.
 */
export enum WebhookEndpointStatus {
  ENABLED = 'enabled',
  DISABLED = 'disabled',
}

/** Subscribes to every event type. */
export const ALL_EVENTS = '*';

/**
 * The product whose registry an endpoint belongs to. The merchant API (`/webhook-endpoints`) and
 * treasury partners (`/treasury/webhook-endpoints`) keep separate registries: each sees only its own.
 */
export enum WebhookRegistry {
  MERCHANT = 'merchant',
  TREASURY = 'treasury',
}

/**
 * A URL a business registered, in addition to its `webhookUrl`, for some event types of one mode.
 * Merchant endpoints are signed with the business's API secret of that mode, like the webhookUrl;
 * treasury endpoints with a signing secret of their own, kept sealed (AES-256-GCM), never in plain.
 */
@Entity('webhook_endpoints')
@Index('ix_webhook_endpoints_business_mode_created', ['businessId', 'livemode', 'createdAt'])
export class WebhookEndpoint extends MutableTenantEntity {
  @ManyToOne(() => Business, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: Business;

  @Column('text') url: string;

  /** Event types it receives (`wallet.funded`, …); `["*"]` means every type. */
  @Column('text', { array: true }) events: string[];

  @Column({
    type: 'enum',
    enum: WebhookEndpointStatus,
    enumName: 'webhook_endpoint_status',
    default: WebhookEndpointStatus.ENABLED,
  })
  status: WebhookEndpointStatus;

  @Column('text', { nullable: true }) description: string | null;

  @Column({ type: 'enum', enum: WebhookRegistry, enumName: 'webhook_registry', default: WebhookRegistry.MERCHANT })
  registry: WebhookRegistry;

  /** Treasury only: the sealed signing secret, and its displayable hint (`whsk_…AbCd`). */
  @Column('text', { nullable: true }) secretCiphertext: string | null;
  @Column('text', { nullable: true }) secretHint: string | null;

  /** Treasury only: the secret the last rotation retired; it signs beside the new one until it expires. */
  @Column('text', { nullable: true }) previousSecretCiphertext: string | null;
  @Column('timestamptz', { nullable: true }) previousSecretExpiresAt: Date | null;

  /** Treasury only: the interface version the partner's payloads follow. */
  @Column('text', { nullable: true }) apiVersion: string | null;
}
