import { RequestContext } from '../shared/context';
import { DomainEventBus } from '../shared/domain-events';
import { JobRequest, jobsCtes } from '../shared/jobs';
import { DomainEvent } from './event.entity';
import { EventInsert, EventRecording } from './event-recording';
import { TesseraPubSub } from './pubsub';
import { EventTopic, PublishedEvent } from './events.topics';

/**
 * The one event emitter. `record` writes the event row in the caller's transaction (the
 * transactional outbox), telling `event.recorded` to its subscribers there (the webhooks area
 * writes the event's deliveries and their jobs in the same statement), and publishes it to
 * subscribers only after that transaction commits.
 */
export class EventService {
  constructor(
    private readonly pubSub: TesseraPubSub,
    private readonly bus: DomainEventBus,
  ) {}

  /** `jobs`: jobs the recorded change schedules, enqueued in the event's own statement (one round trip for both). */
  async record(
    ctx: RequestContext,
    type: string,
    data: Record<string, unknown>,
    jobs: JobRequest[] = [],
  ): Promise<DomainEvent> {
    const recording = new EventRecording(this.insertOf(ctx, type, data, jobs), false);
    await this.bus.publish(ctx, 'event.recorded', recording);
    if (!recording.isSent) {
      const { sql, params } = this.aloneStatement(recording.insert);
      const [row]: Array<{ id: string; created_at: Date }> = await ctx.em.query(sql, params);
      recording.send()(this.eventOf(ctx, recording.insert, row));
    }
    const event = recording.row!;
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
    const recording = new EventRecording(this.insertOf(ctx, type, data, jobs), true, (event) =>
      this.publishAfterCommit(ctx, event),
    );
    this.bus.publishSync(ctx, 'event.recorded', recording);
    if (recording.isSent) return;
    const { sql, params } = this.aloneStatement(recording.insert);
    const written = recording.send();
    ctx.writeBehind(sql, params, ([row]: Array<{ id: string; created_at: Date }>) =>
      written(this.eventOf(ctx, recording.insert, row)),
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

  /** The event row and its jobs in one statement, when no subscriber wrote it with rows of its own. */
  private aloneStatement(insert: EventInsert): { sql: string; params: unknown[] } {
    const scheduled = jobsCtes(insert.jobs, insert.params.length + 1);
    return {
      // `scheduled` calls add_job in a SELECT, which runs only when read: hence its count.
      sql: `WITH event AS (${insert.sql}), ${scheduled.sql} SELECT event.id, event.created_at, ${scheduled.countSql} AS jobs FROM event`,
      params: [...insert.params, ...scheduled.params],
    };
  }

  private eventOf(ctx: RequestContext, insert: EventInsert, row: { id: string; created_at: Date }): DomainEvent {
    return ctx.repo(DomainEvent).create({ ...insert.event, id: row.id, createdAt: row.created_at });
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
    ctx.afterCommit(() => this.pubSub.publish(EventTopic.EVENT, published));
  }
}
