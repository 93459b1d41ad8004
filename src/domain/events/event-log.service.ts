import { In } from 'typeorm';
import { WebhookDelivery } from '../webhooks/webhook-delivery.entity';
import { ALL_ROLES, RequestContext } from '../shared/context';
import { isUuid } from '../shared/ids';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { findOwned } from '../shared/tenancy';
import { EventFilters } from './event-log.commands';
import { DomainEvent } from './event.entity';

/** The event log: what happened in a business and mode, newest first, with each event's deliveries. */
export class EventLogService {
  /** Events newest first; keyset cursors carry the filters. */
  async list(ctx: RequestContext, filters: EventFilters, page: PageQuery): Promise<ListPage<DomainEvent>> {
    ctx.requireRole(...ALL_ROLES);
    const query = newestFirst(ctx, DomainEvent, 'e');
    if (filters.type) query.andWhere('e.type = :type', { type: filters.type });
    if (filters.from) query.andWhere('e.created_at >= :from', { from: filters.from });
    if (filters.to) query.andWhere('e.created_at <= :to', { to: filters.to });
    const cursorFilters = {
      type: filters.type ?? null,
      from: filters.from?.toISOString() ?? null,
      to: filters.to?.toISOString() ?? null,
    };
    return paginate(query, 'e', page, cursorFilters);
  }

  async get(ctx: RequestContext, eventId: string): Promise<DomainEvent> {
    ctx.requireRole(...ALL_ROLES);
    return findOwned(ctx, DomainEvent, eventId, 'Event');
  }

  /** Deliveries of the given events (of the caller's business and mode), oldest first. */
  async deliveriesOf(ctx: RequestContext, eventIds: string[]): Promise<WebhookDelivery[]> {
    if (eventIds.length === 0) return [];
    return ctx.repo(WebhookDelivery).find({
      where: { eventId: In(eventIds), businessId: ctx.requireBusiness(), livemode: ctx.livemode },
      order: { createdAt: 'ASC' },
    });
  }

  /** Deliveries of the caller's business and mode among `ids` (unknown and foreign ids are left out). */
  async deliveriesByIds(ctx: RequestContext, ids: string[]): Promise<WebhookDelivery[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return ctx
      .repo(WebhookDelivery)
      .find({ where: { id: In(valid), businessId: ctx.requireBusiness(), livemode: ctx.livemode } });
  }
}
