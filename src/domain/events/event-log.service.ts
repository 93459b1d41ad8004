import { ALL_ROLES, RequestContext } from '../shared/context';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { findOwned } from '../shared/tenancy';
import { EventFilters } from './event-log.commands';
import { DomainEvent } from './event.entity';

/** The event log: what happened in a business and mode, newest first (each event's deliveries: DeliveryLogService). */
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
}
