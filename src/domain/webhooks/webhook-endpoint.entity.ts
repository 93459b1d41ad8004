import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Business } from '../identity/identity.entities';

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
 * A URL a merchant registered, in addition to its business `webhookUrl`, for some event types of
 * one mode. Deliveries are signed with the business's API secret of that mode, like the webhookUrl's.
 */
@Entity('webhook_endpoints')
@Index('ix_webhook_endpoints_business_mode_created', ['businessId', 'livemode', 'createdAt'])
export class WebhookEndpoint {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('uuid') businessId: string;

  @ManyToOne(() => Business, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'business_id' })
  business?: Business;

  @Column('boolean') livemode: boolean;

  @Column('text') url: string;

  /** Event types it receives (`wallet.funded`, …); `["*"]` means every type. */
  @Column('text', { array: true }) events: string[];

  @Column({ type: 'enum', enum: WebhookEndpointStatus, enumName: 'webhook_endpoint_status', default: WebhookEndpointStatus.ENABLED })
  status: WebhookEndpointStatus;

  @Column('text', { nullable: true }) description: string | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
