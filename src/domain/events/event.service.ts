import { RequestContext } from '../shared/context';
import { JobRequest } from '../shared/jobs';
import { WebhookService } from '../webhooks/webhook.service';
import { DomainEvent } from './event.entity';
import { PublishedEvent, TesseraPubSub, Topic } from './pubsub';

/**
 * The one event emitter. `record` writes the event row in the caller's transaction (the
 * transactional outbox), with its webhook delivery and that delivery's job, and publishes it to
 * subscribers only after that transaction commits.
 */
export class EventService {
  constructor(
    private readonly pubSub: TesseraPubSub,
    private readonly webhooks: WebhookService,
  ) {}

  /** `jobs`: jobs the recorded change schedules, enqueued in the event's own statement (one round trip for both). */
  async record(ctx: RequestContext, type: string, data: Record<string, unknown>, jobs: JobRequest[] = []): Promise<DomainEvent> {
    if (!ctx.inTransaction) throw new Error('EventService.record must run inside a transaction');
    const businessId = ctx.requireBusiness();
    const { event } = await this.webhooks.recordWithDeliveries(ctx, {
      event: { businessId, livemode: ctx.livemode, type, data },
      sql: `INSERT INTO events (business_id, livemode, type, data) VALUES ($1, $2, $3, $4::jsonb) RETURNING *`,
      params: [businessId, ctx.livemode, type, JSON.stringify(data)],
      jobs,
    });
    const published: PublishedEvent = {
      id: event.id,
      businessId,
      livemode: ctx.livemode,
      type,
      data,
      createdAt: event.createdAt.toISOString(),
    };
    ctx.afterCommit(() => this.pubSub.publish(Topic.EVENT, published));
    return event;
  }
}
