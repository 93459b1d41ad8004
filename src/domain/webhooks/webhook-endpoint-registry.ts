import { BusinessSettings } from '../shared/business-settings.entity';
import { Role } from '../shared/modes';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, notFound, validationError } from '../shared/errors';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { findOwned, lockOwned } from '../shared/tenancy';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint, WebhookEndpointStatus, WebhookRegistry } from './webhook-endpoint.entity';
import { CreateEndpoint, DeliveryFilters, EndpointDeliveryFilters, UpdateEndpoint } from './webhooks.commands';
import { WebhookTargetPolicy } from '../shared/url-policy';

/** At most this many endpoints per business, mode and registry; creating one more is a CONFLICT. */
export const MAX_ENDPOINTS_PER_MODE = 20;

const endpointNoun = (registry: WebhookRegistry | null) =>
  registry === WebhookRegistry.TREASURY ? 'Treasury webhook endpoint' : 'Webhook endpoint';

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
  const what = endpointNoun(registry);
  const endpoint = options.lock
    ? await lockOwned(ctx, WebhookEndpoint, id, what)
    : await findOwned(ctx, WebhookEndpoint, id, what);
  if (registry && endpoint.registry !== registry) throw notFound(what);
  return endpoint;
}

/** Deliveries of the context's business and mode matching the filters, newest first (the query of every delivery list). */
export function deliveryQuery(ctx: RequestContext, filters: DeliveryFilters) {
  const query = newestFirst(ctx, WebhookDelivery, 'delivery');
  if (filters.status) query.andWhere('delivery.status = :status', { status: filters.status });
  if (filters.eventType) query.andWhere('delivery.event_type = :eventType', { eventType: filters.eventType });
  return query;
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

  constructor(private readonly targets: WebhookTargetPolicy) {}

  /** Who may use the registry at all; a subclass adds its product's own condition. */
  protected async authorize(ctx: RequestContext, roles: Role[]): Promise<void> {
    ctx.requireRole(...roles);
  }

  /**
   * The refusals an operation answers before it looks at its input: the caller's role and product
   * for a read or a write, then (with an id) the endpoint's existence. A face asks first so that a
   * caller who may not use the registry learns nothing of the shape; each operation checks again.
   */
  async assertAccess(ctx: RequestContext, access: 'read' | 'write', endpointId?: string): Promise<void> {
    await this.authorize(ctx, access === 'read' ? ALL_ROLES : WRITE_ROLES);
    if (endpointId !== undefined) await findEndpoint(ctx, endpointId, this.registry);
  }

  /** Every endpoint of the business and mode, newest first (at most MAX_ENDPOINTS_PER_MODE, so never paged). */
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

  /** Changes the fields present in the command; a refused URL changes nothing. */
  async update(
    ctx: RequestContext,
    id: string,
    changes: UpdateEndpoint & { apiVersion?: string },
  ): Promise<WebhookEndpoint> {
    await this.authorize(ctx, WRITE_ROLES);
    await findEndpoint(ctx, id, this.registry);
    if (changes.url !== undefined) await this.checkTarget(ctx, changes.url);
    return inTransaction(ctx, async (tx) => {
      const endpoint = await findEndpoint(tx, id, this.registry, { lock: true });
      if (changes.url !== undefined) endpoint.url = changes.url;
      if (changes.events !== undefined) endpoint.events = [...new Set(changes.events)];
      if (changes.status !== undefined) endpoint.status = changes.status;
      if (changes.description !== undefined) endpoint.description = changes.description;
      if (changes.apiVersion !== undefined) endpoint.apiVersion = changes.apiVersion;
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

  /** Deliveries to one endpoint, newest first. */
  async listDeliveries(
    ctx: RequestContext,
    filters: EndpointDeliveryFilters,
    page: PageQuery,
  ): Promise<ListPage<WebhookDelivery>> {
    await this.authorize(ctx, ALL_ROLES);
    const endpoint = await findEndpoint(ctx, filters.endpointId, this.registry);
    const query = deliveryQuery(ctx, filters).andWhere('delivery.endpoint_id = :endpointId', {
      endpointId: endpoint.id,
    });
    return paginate(query, 'delivery', page, {
      endpointId: endpoint.id,
      status: filters.status ?? null,
      eventType: filters.eventType ?? null,
    });
  }

  /** Inserts an endpoint, within the per-mode limit of the registry. */
  protected async insert(
    ctx: RequestContext,
    data: CreateEndpoint,
    own: Partial<WebhookEndpoint> = {},
  ): Promise<WebhookEndpoint> {
    await this.checkTarget(ctx, data.url);
    return inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      // Serializes creations of one business and mode, so the limit holds under concurrency.
      await tx
        .repo(BusinessSettings)
        .createQueryBuilder('settings')
        .setLock('pessimistic_write')
        .where('settings.business_id = :businessId AND settings.livemode = :livemode', {
          businessId,
          livemode: tx.livemode,
        })
        .getOne();
      const count = await tx
        .repo(WebhookEndpoint)
        .count({ where: { businessId, livemode: tx.livemode, registry: this.registry } });
      if (count >= MAX_ENDPOINTS_PER_MODE) {
        throw new DomainError(
          ErrorCode.CONFLICT,
          `A business may register at most ${MAX_ENDPOINTS_PER_MODE} webhook endpoints per mode; delete one first`,
        );
      }
      return tx.repo(WebhookEndpoint).save(
        tx.repo(WebhookEndpoint).create({
          businessId,
          livemode: tx.livemode,
          registry: this.registry,
          url: data.url,
          events: [...new Set(data.events)],
          status: data.status ?? WebhookEndpointStatus.ENABLED,
          description: data.description ?? null,
          ...own,
        }),
      );
    });
  }

  private async checkTarget(ctx: RequestContext, url: string): Promise<void> {
    const refusal = await this.targets.refusal(url, ctx.livemode);
    if (refusal) throw validationError({ url: [refusal] });
  }
}
