import { In } from 'typeorm';
import { z } from 'zod';
import { WebhookDelivery } from '../webhooks/webhook-delivery.entity';
import { ALL_ROLES, RequestContext } from '../shared/context';
import { notFound } from '../shared/errors';
import { MAX_PAGE_SIZE, Page, PageRequest, keysetPage } from '../shared/pagination';
import { dateTimeSchema, isUuid, parseInput } from '../../wire/validation';
import { DomainEvent } from './event.entity';

export interface EventFilters {
  type?: string | null;
  from?: string | Date | null;
  to?: string | Date | null;
}

const filtersSchema = z.object({
  type: z.string().regex(/^[a-z_]+(\.[a-z_]+)*$/, 'must be an event type such as wallet.funded').nullish(),
  from: dateTimeSchema.nullish(),
  to: dateTimeSchema.nullish(),
});

const offsetSchema = z.object({
  page: z.coerce.number().int().min(1, 'must be 1 or more').default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`).default(20),
});


/** The event log: what happened in a business and mode, newest first, with each event's deliveries. */
export class EventLogService {
  /** Offset pages (`page`, `limit`, `total`) for the REST list. */
  async list(ctx: RequestContext, filters: EventFilters, paging: { page?: unknown; limit?: unknown }) {
    ctx.requireRole(...ALL_ROLES);
    const { page, limit } = parseInput(offsetSchema, paging);
    const [items, total] = await this.query(ctx, parseInput(filtersSchema, filters))
      .skip((page - 1) * limit)
      .take(limit)
      .getManyAndCount();
    return { items, total, page, limit };
  }

  /** Keyset pages on (createdAt, id) for GraphQL connections; the cursor carries the filters. */
  async connection(ctx: RequestContext, filters: EventFilters, request: PageRequest): Promise<Page<DomainEvent>> {
    ctx.requireRole(...ALL_ROLES);
    const parsed = parseInput(filtersSchema, filters);
    const cursorFilters = { type: parsed.type ?? null, from: parsed.from?.toISOString() ?? null, to: parsed.to?.toISOString() ?? null };
    return keysetPage(this.query(ctx, parsed), 'e', request, cursorFilters);
  }

  async get(ctx: RequestContext, eventId: string): Promise<DomainEvent> {
    ctx.requireRole(...ALL_ROLES);
    const event = isUuid(eventId)
      ? await ctx.repo(DomainEvent).findOne({ where: { id: eventId, businessId: ctx.requireBusiness(), livemode: ctx.livemode } })
      : null;
    if (!event) throw notFound('Event');
    return event;
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
    return ctx.repo(WebhookDelivery).find({ where: { id: In(valid), businessId: ctx.requireBusiness(), livemode: ctx.livemode } });
  }

  async delivery(ctx: RequestContext, deliveryId: string): Promise<WebhookDelivery> {
    ctx.requireRole(...ALL_ROLES);
    const delivery = isUuid(deliveryId)
      ? await ctx.repo(WebhookDelivery).findOne({ where: { id: deliveryId, businessId: ctx.requireBusiness(), livemode: ctx.livemode } })
      : null;
    if (!delivery) throw notFound('Webhook delivery');
    return delivery;
  }

  private query(ctx: RequestContext, filters: z.output<typeof filtersSchema>) {
    const query = ctx.repo(DomainEvent).createQueryBuilder('e')
      .where('e.business_id = :businessId AND e.livemode = :livemode', { businessId: ctx.requireBusiness(), livemode: ctx.livemode })
      .orderBy('e.created_at', 'DESC')
      .addOrderBy('e.id', 'DESC');
    if (filters.type) query.andWhere('e.type = :type', { type: filters.type });
    if (filters.from) query.andWhere('e.created_at >= :from', { from: filters.from });
    if (filters.to) query.andWhere('e.created_at <= :to', { to: filters.to });
    return query;
  }
}
