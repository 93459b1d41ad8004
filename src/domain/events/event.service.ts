import { RequestContext } from '../shared/context';
import { JobRequest } from '../shared/jobs';
import { EventInsert, WebhookService } from '../webhooks/webhook.service';
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
  async record(
    ctx: RequestContext,
    type: string,
    data: Record<string, unknown>,
    jobs: JobRequest[] = [],
  ): Promise<DomainEvent> {
    const { event } = await this.webhooks.recordWithDeliveries(ctx, this.insertOf(ctx, type, data, jobs));
    this.publishAfterCommit(ctx, event);
    return event;
  }

  /**
   * `record` without waiting for the statement's answer: the same statement in the same
   * transaction, sent at once and answered before the transaction's next statement or its COMMIT
   * (RequestContext.writeBehind), which fail if it failed. For a change that needs nothing of the
   * event row back (the charge's events): one round trip less.
   */
  recordBehind(ctx: RequestContext, type: string, data: Record<string, unknown>, jobs: JobRequest[] = []): void {
    this.webhooks.recordWithDeliveriesBehind(ctx, this.insertOf(ctx, type, data, jobs), (event) =>
      this.publishAfterCommit(ctx, event),
    );
  }

  private insertOf(ctx: RequestContext, type: string, data: Record<string, unknown>, jobs: JobRequest[]): EventInsert {
    if (!ctx.inTransaction) throw new Error('EventService.record must run inside a transaction');
    const businessId = ctx.requireBusiness();
    return {
      event: { businessId, livemode: ctx.livemode, type, data },
      sql: `INSERT INTO events (business_id, livemode, type, data) VALUES ($1, $2, $3, $4::jsonb) RETURNING *`,
      params: [businessId, ctx.livemode, type, JSON.stringify(data)],
      jobs,
    };
  }

  private publishAfterCommit(ctx: RequestContext, event: DomainEvent): void {
    const published: PublishedEvent = {
      id: event.id,
      businessId: event.businessId,
      livemode: event.livemode,
      type: event.type,
      data: event.data,
      createdAt: event.createdAt.toISOString(),
    };
    ctx.afterCommit(() => this.pubSub.publish(Topic.EVENT, published));
  }
}
