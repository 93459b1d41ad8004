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

  /**
   * The events about these payments (those whose payload names them: `data.paymentId`), oldest
   * first, in the caller's business and mode: a payment's page lists its events and their deliveries.
   */
  async aboutPayments(ctx: RequestContext, paymentIds: string[]): Promise<DomainEvent[]> {
    ctx.requireRole(...ALL_ROLES);
    if (paymentIds.length === 0) return [];
    return ctx.em
      .createQueryBuilder(DomainEvent, 'e')
      .where('e.business_id = :businessId AND e.livemode = :livemode', {
        businessId: ctx.businessId,
        livemode: ctx.livemode,
      })
      .andWhere("e.data ? 'paymentId' AND e.data->>'paymentId' IN (:...paymentIds)", { paymentIds })
      .orderBy('e.created_at', 'ASC')
      .addOrderBy('e.id', 'ASC')
      .getMany();
  }

  async get(ctx: RequestContext, eventId: string): Promise<DomainEvent> {
    ctx.requireRole(...ALL_ROLES);
    return findOwned(ctx, DomainEvent, eventId, 'Event');
  }
}
