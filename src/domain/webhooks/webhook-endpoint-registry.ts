import { z } from 'zod';
import { BusinessSettings, Role } from '../identity/identity.entities';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, notFound, validationError } from '../shared/errors';

import { absoluteUrlSchema, enumFilter, isUuid, parseInput, required, pageParams } from '../../wire/validation';
import { WebhookDelivery, WebhookDeliveryStatus } from './webhook-delivery.entity';
import { ALL_EVENTS, WebhookEndpoint, WebhookEndpointStatus, WebhookRegistry } from './webhook-endpoint.entity';
import { WebhookTargetPolicy } from './url-policy';

/** At most this many endpoints per business, mode and registry; creating one more is a CONFLICT. */
export const MAX_ENDPOINTS_PER_MODE = 20;

const EVENT_TYPE = /^[a-z_]+(\.[a-z_]+)*$/;

const eventsSchema = z
  .array(
    z.string().refine((value) => value === ALL_EVENTS || EVENT_TYPE.test(value), 'must be an event type such as wallet.funded, or "*"'),
    { error: required('a non-empty array of event types, or ["*"]') },
  )
  .min(1, 'must list at least one event type, or "*"')
  .max(100, 'must list at most 100 event types')
  .transform((events) => [...new Set(events)]);

const statusSchema = z.enum(WebhookEndpointStatus, { error: 'must be enabled or disabled' });
const descriptionSchema = z.string().trim().max(500, 'must be at most 500 characters').nullable();
const urlSchema = z.string({ error: required('an absolute http(s) URL') }).pipe(absoluteUrlSchema);

/** The body that creates an endpoint in either registry (a registry may extend it). */
export const endpointCreateSchema = z.object({
  url: urlSchema,
  events: eventsSchema,
  status: statusSchema.optional(),
  description: descriptionSchema.optional(),
}, { error: 'must be a JSON object' });

/** The body that changes an endpoint in either registry: any of the fields, absent ones unchanged. */
export const endpointUpdateSchema = z.object({
  url: urlSchema.optional(),
  events: eventsSchema.optional(),
  status: statusSchema.optional(),
  description: descriptionSchema.optional(),
}, { error: 'must be a JSON object' });

type EndpointInput = z.output<typeof endpointCreateSchema>;
type EndpointChanges = z.output<typeof endpointUpdateSchema> & { apiVersion?: string };

/** The filters of every delivery list: `status` (any letter case) and `eventType`. */
export const deliveryFiltersSchema = z.object({
  status: enumFilter(WebhookDeliveryStatus).nullish(),
  eventType: z.string().regex(EVENT_TYPE, 'must be an event type such as wallet.funded').nullish(),
});

/** A REST delivery list's query: the filters, `page` and `limit`. */
export const deliveriesQuerySchema = deliveryFiltersSchema.extend(pageParams);

export interface DeliveryPage {
  items: WebhookDelivery[];
  total: number;
  page: number;
  limit: number;
}

/**
 * An endpoint of the caller's business and mode, in one registry or (registry null) in either;
 * anything else, another business's or mode's endpoint included, is NOT_FOUND.
 */
export async function findEndpoint(
  ctx: RequestContext,
  id: string,
  registry: WebhookRegistry | null,
  options: { lock?: boolean } = {},
): Promise<WebhookEndpoint> {
  const endpoint = isUuid(id)
    ? await ctx.repo(WebhookEndpoint).findOne({
      where: { id, businessId: ctx.requireBusiness(), livemode: ctx.livemode, ...(registry ? { registry } : {}) },
      ...(options.lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    })
    : null;
  if (!endpoint) throw notFound(registry === WebhookRegistry.TREASURY ? 'Treasury webhook endpoint' : 'Webhook endpoint');
  return endpoint;
}

/**
 * What the merchant and treasury registries share: one list of endpoints per business, mode and
 * registry; an endpoint of another business, mode or registry does not exist for the caller
 * (NOT_FOUND). URLs must pass the target policy of their mode (live: https, publicly reachable;
 * test: private addresses only where the deployment allows them) when created or changed. Reads
 * need any role, writes OWNER, ADMIN or DEVELOPER.
 */
export abstract class WebhookEndpointRegistry {
  protected abstract readonly registry: WebhookRegistry;
  protected abstract readonly updateSchema: z.ZodType<EndpointChanges>;

  constructor(private readonly targets: WebhookTargetPolicy) {}

  /** Who may use the registry at all; a subclass adds its product's own condition. */
  protected async authorize(ctx: RequestContext, roles: Role[]): Promise<void> {
    ctx.requireRole(...roles);
  }

  /** Every endpoint of the business and mode, newest first (at most MAX_ENDPOINTS_PER_MODE). */
  async list(ctx: RequestContext): Promise<WebhookEndpoint[]> {
    await this.authorize(ctx, ALL_ROLES);
    return ctx.repo(WebhookEndpoint).find({
      where: { businessId: ctx.requireBusiness(), livemode: ctx.livemode, registry: this.registry },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  async get(ctx: RequestContext, id: string): Promise<WebhookEndpoint> {
    await this.authorize(ctx, ALL_ROLES);
    return findEndpoint(ctx, id, this.registry);
  }

  /** Changes the fields present in the input; an invalid input changes nothing. */
  async update(ctx: RequestContext, id: string, input: unknown): Promise<WebhookEndpoint> {
    await this.authorize(ctx, WRITE_ROLES);
    await findEndpoint(ctx, id, this.registry);
    const data = parseInput(this.updateSchema, input ?? {});
    if (data.url !== undefined) await this.checkTarget(ctx, data.url);
    return inTransaction(ctx, async (tx) => {
      const endpoint = await findEndpoint(tx, id, this.registry, { lock: true });
      if (data.url !== undefined) endpoint.url = data.url;
      if (data.events !== undefined) endpoint.events = data.events;
      if (data.status !== undefined) endpoint.status = data.status;
      if (data.description !== undefined) endpoint.description = data.description;
      if (data.apiVersion !== undefined) endpoint.apiVersion = data.apiVersion;
      return tx.repo(WebhookEndpoint).save(endpoint);
    });
  }

  /** Deletes the endpoint; its deliveries are kept with `endpointId` null. */
  async delete(ctx: RequestContext, id: string): Promise<WebhookEndpoint> {
    await this.authorize(ctx, WRITE_ROLES);
    const endpoint = await findEndpoint(ctx, id, this.registry);
    await ctx.repo(WebhookEndpoint).delete({ id: endpoint.id });
    return endpoint;
  }

  /** Deliveries to one endpoint, newest first; `page` from 1, `limit` 1 to 100 (20 by default). */
  async deliveries(ctx: RequestContext, id: string, query: unknown): Promise<DeliveryPage> {
    await this.authorize(ctx, ALL_ROLES);
    const endpoint = await findEndpoint(ctx, id, this.registry);
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

  /** Inserts an endpoint that passed validation, within the per-mode limit of the registry. */
  protected async insert(ctx: RequestContext, data: EndpointInput, own: Partial<WebhookEndpoint> = {}): Promise<WebhookEndpoint> {
    await this.checkTarget(ctx, data.url);
    return inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      // Serializes creations of one business and mode, so the limit holds under concurrency.
      await tx.repo(BusinessSettings).createQueryBuilder('settings')
        .setLock('pessimistic_write')
        .where('settings.business_id = :businessId AND settings.livemode = :livemode', { businessId, livemode: tx.livemode })
        .getOne();
      const count = await tx.repo(WebhookEndpoint).count({ where: { businessId, livemode: tx.livemode, registry: this.registry } });
      if (count >= MAX_ENDPOINTS_PER_MODE) {
        throw new DomainError(ErrorCode.CONFLICT, `A business may register at most ${MAX_ENDPOINTS_PER_MODE} webhook endpoints per mode; delete one first`);
      }
      return tx.repo(WebhookEndpoint).save(tx.repo(WebhookEndpoint).create({
        businessId,
        livemode: tx.livemode,
        registry: this.registry,
        url: data.url,
        events: data.events,
        status: data.status ?? WebhookEndpointStatus.ENABLED,
        description: data.description ?? null,
        ...own,
      }));
    });
  }

  private async checkTarget(ctx: RequestContext, url: string): Promise<void> {
    const refusal = await this.targets.refusal(url, ctx.livemode);
    if (refusal) throw validationError({ url: [refusal] });
  }
}
