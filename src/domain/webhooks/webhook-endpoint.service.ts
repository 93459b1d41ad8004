import { z } from 'zod';
import { BusinessSettings } from '../identity/identity.entities';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, notFound, validationError } from '../shared/errors';
import { MAX_PAGE_SIZE } from '../shared/pagination';
import { absoluteUrlSchema, isUuid, parseInput } from '../shared/validation';
import { WebhookDelivery, WebhookDeliveryStatus } from './webhook-delivery.entity';
import { ALL_EVENTS, WebhookEndpoint, WebhookEndpointStatus } from './webhook-endpoint.entity';
import { liveUrlRefusal } from './url-policy';

/** At most this many endpoints per business and mode; creating one more is a CONFLICT. */
export const MAX_ENDPOINTS_PER_MODE = 20;

const EVENT_TYPE = /^[a-z_]+(\.[a-z_]+)*$/;

const eventsSchema = z
  .array(
    z.string().refine((value) => value === ALL_EVENTS || EVENT_TYPE.test(value), 'must be an event type such as wallet.funded, or "*"'),
    { error: 'is required: a non-empty array of event types, or ["*"]' },
  )
  .min(1, 'must list at least one event type, or "*"')
  .max(100, 'must list at most 100 event types')
  .transform((events) => [...new Set(events)]);

const statusSchema = z.enum(WebhookEndpointStatus, { error: 'must be enabled or disabled' });
const descriptionSchema = z.string().trim().max(500, 'must be at most 500 characters').nullable();
const urlSchema = z.string({ error: 'is required: an absolute http(s) URL' }).pipe(absoluteUrlSchema);

const createSchema = z.object({
  url: urlSchema,
  events: eventsSchema,
  status: statusSchema.optional(),
  description: descriptionSchema.optional(),
}, { error: 'must be a JSON object' });

const updateSchema = z.object({
  url: urlSchema.optional(),
  events: eventsSchema.optional(),
  status: statusSchema.optional(),
  description: descriptionSchema.optional(),
}, { error: 'must be a JSON object' });

/** A query-string integer in [1, max]. */
const integerParam = (max: number) => {
  const message = max === Number.MAX_SAFE_INTEGER ? 'must be an integer of at least 1' : `must be an integer between 1 and ${max}`;
  return z
    .union([z.string(), z.number()], { error: message })
    .refine((value) => /^\d+$/.test(String(value)) && Number(value) >= 1 && Number(value) <= max, message)
    .transform((value) => Number(value))
    .optional();
};

const deliveriesQuerySchema = z.object({
  page: integerParam(Number.MAX_SAFE_INTEGER),
  limit: integerParam(MAX_PAGE_SIZE),
  status: z.enum(WebhookDeliveryStatus, { error: `must be one of ${Object.values(WebhookDeliveryStatus).join(', ')}` }).optional(),
  eventType: z.string().regex(EVENT_TYPE, 'must be an event type such as wallet.funded').optional(),
});

export interface DeliveryPage {
  items: WebhookDelivery[];
  total: number;
  page: number;
  limit: number;
}

/**
 * The merchant's registry of webhook endpoints, one list per business and mode. An endpoint of
 * another business or of the other mode does not exist for the caller (NOT_FOUND). Live endpoints
 * must pass the live URL policy (https, publicly reachable) when created or changed.
 */
export class WebhookEndpointService {
  async create(ctx: RequestContext, input: unknown): Promise<WebhookEndpoint> {
    ctx.requireRole(...WRITE_ROLES);
    const data = parseInput(createSchema, input ?? {});
    await this.checkLiveUrl(ctx, data.url);
    return inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      // Serializes creations of one business and mode, so the limit holds under concurrency.
      await tx.repo(BusinessSettings).createQueryBuilder('settings')
        .setLock('pessimistic_write')
        .where('settings.business_id = :businessId AND settings.livemode = :livemode', { businessId, livemode: tx.livemode })
        .getOne();
      const count = await tx.repo(WebhookEndpoint).count({ where: { businessId, livemode: tx.livemode } });
      if (count >= MAX_ENDPOINTS_PER_MODE) {
        throw new DomainError(ErrorCode.CONFLICT, `A business may register at most ${MAX_ENDPOINTS_PER_MODE} webhook endpoints per mode; delete one first`);
      }
      return tx.repo(WebhookEndpoint).save(tx.repo(WebhookEndpoint).create({
        businessId,
        livemode: tx.livemode,
        url: data.url,
        events: data.events,
        status: data.status ?? WebhookEndpointStatus.ENABLED,
        description: data.description ?? null,
      }));
    });
  }

  /** Every endpoint of the business and mode, newest first (at most MAX_ENDPOINTS_PER_MODE). */
  async list(ctx: RequestContext): Promise<WebhookEndpoint[]> {
    ctx.requireRole(...ALL_ROLES);
    return ctx.repo(WebhookEndpoint).find({
      where: { businessId: ctx.requireBusiness(), livemode: ctx.livemode },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  async get(ctx: RequestContext, id: string): Promise<WebhookEndpoint> {
    ctx.requireRole(...ALL_ROLES);
    return this.find(ctx, id);
  }

  async update(ctx: RequestContext, id: string, input: unknown): Promise<WebhookEndpoint> {
    ctx.requireRole(...WRITE_ROLES);
    await this.find(ctx, id);
    const data = parseInput(updateSchema, input ?? {});
    if (data.url !== undefined) await this.checkLiveUrl(ctx, data.url);
    return inTransaction(ctx, async (tx) => {
      const endpoint = await this.find(tx, id);
      if (data.url !== undefined) endpoint.url = data.url;
      if (data.events !== undefined) endpoint.events = data.events;
      if (data.status !== undefined) endpoint.status = data.status;
      if (data.description !== undefined) endpoint.description = data.description;
      return tx.repo(WebhookEndpoint).save(endpoint);
    });
  }

  /** Deletes the endpoint; its deliveries are kept with `endpointId` null. */
  async delete(ctx: RequestContext, id: string): Promise<WebhookEndpoint> {
    ctx.requireRole(...WRITE_ROLES);
    const endpoint = await this.find(ctx, id);
    await ctx.repo(WebhookEndpoint).delete({ id: endpoint.id });
    return endpoint;
  }

  /** Deliveries to one endpoint, newest first; `page` from 1, `limit` 1 to 100 (20 by default). */
  async deliveries(ctx: RequestContext, id: string, query: unknown): Promise<DeliveryPage> {
    ctx.requireRole(...ALL_ROLES);
    const endpoint = await this.find(ctx, id);
    const filters = parseInput(deliveriesQuerySchema, query ?? {});
    const page = filters.page ?? 1;
    const limit = filters.limit ?? 20;
    const [items, total] = await ctx.repo(WebhookDelivery).findAndCount({
      where: {
        endpointId: endpoint.id,
        businessId: endpoint.businessId,
        livemode: endpoint.livemode,
        ...(filters.status ? { status: filters.status } : {}),
        ...(filters.eventType ? { eventType: filters.eventType } : {}),
      },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: (page - 1) * limit,
      take: limit,
    });
    return { items, total, page, limit };
  }

  /** The enabled endpoints of the event's business and mode that subscribed to its type. */
  async subscribedTo(ctx: RequestContext, businessId: string, livemode: boolean, eventType: string): Promise<WebhookEndpoint[]> {
    return ctx.repo(WebhookEndpoint).createQueryBuilder('endpoint')
      .where('endpoint.business_id = :businessId', { businessId })
      .andWhere('endpoint.livemode = :livemode', { livemode })
      .andWhere('endpoint.status = :status', { status: WebhookEndpointStatus.ENABLED })
      .andWhere('endpoint.events && ARRAY[:eventType, :all]::text[]', { eventType, all: ALL_EVENTS })
      .orderBy('endpoint.created_at', 'ASC')
      .addOrderBy('endpoint.id', 'ASC')
      .getMany();
  }

  private async find(ctx: RequestContext, id: string): Promise<WebhookEndpoint> {
    const endpoint = isUuid(id)
      ? await ctx.repo(WebhookEndpoint).findOne({ where: { id, businessId: ctx.requireBusiness(), livemode: ctx.livemode } })
      : null;
    if (!endpoint) throw notFound('Webhook endpoint');
    return endpoint;
  }

  private async checkLiveUrl(ctx: RequestContext, url: string): Promise<void> {
    const refusal = ctx.livemode ? await liveUrlRefusal(url) : null;
    if (refusal) throw validationError({ url: [refusal] });
  }
}
