import crypto from 'node:crypto';
import { z } from 'zod';
import { CheckoutService } from '../checkout/checkout.service';
import { CheckoutSessionSource } from '../checkout/checkout-session.entity';
import { descriptionSchema, intervalSchema, optionalUrlSchema } from '../checkout/inputs';
import { Business, Mode } from '../identity/identity.entities';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { notFound, validationError } from '../shared/errors';
import { normalizeCurrency, positiveMinor } from '../shared/money';
import { keysetPage, offsetPage, OffsetPage, Page, PageRequest } from '../shared/pagination';
import { amountSchema, currencySchema, isUuid, metadataSchema, parseInput, required, pageParams } from '../../wire/validation';
import { PaymentLink } from './payment-link.entity';

const createSchema = z.object({
  name: z.string({ error: required('what the payer is paying for') }).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  description: descriptionSchema,
  amount: amountSchema,
  currency: currencySchema,
  allowRecurring: z.boolean({ error: 'must be true or false' }).optional(),
  recurringInterval: intervalSchema.nullish(),
  successUrl: optionalUrlSchema,
  metadata: metadataSchema,
}, { error: 'must be a JSON object' });

const booleanParam = z.union([z.boolean(), z.enum(['true', 'false'])], { error: 'must be true or false' })
  .transform((value) => value === true || value === 'true').optional();

const listSchema = z.object({ ...pageParams, active: booleanParam });

const TOKEN = /^plink_(test|live)_[A-Za-z0-9_-]{22}$/;

/** What visiting a link's public URL leads to. */
export type LinkVisit =
  | { kind: 'session'; checkoutUrl: string }
  | { kind: 'inactive'; link: PaymentLink; merchantName: string };

/**
 * Payment links: a fixed amount behind a reusable public URL. Each visit opens a new checkout
 * session (source payment_link); a deactivated link opens none. Sessions opened before the link
 * was deactivated stay payable until they expire.
 */
export class PaymentLinkService {
  constructor(
    private readonly publicBaseUrl: string,
    private readonly checkout: CheckoutService,
  ) {}

  urlOf(link: PaymentLink): string {
    return `${this.publicBaseUrl}/pay/${link.token}`;
  }

  async create(ctx: RequestContext, input: unknown): Promise<PaymentLink> {
    ctx.requireRole(...WRITE_ROLES);
    const data = parseInput(createSchema, input ?? {});
    const currency = normalizeCurrency(data.currency);
    const amount = positiveMinor(data.amount, currency);
    if (data.recurringInterval && !data.allowRecurring) {
      throw validationError({ recurringInterval: ['is only allowed with allowRecurring: true'] });
    }
    // Every visit would open a session, and opening one would be refused.
    this.checkout.requireCardPayments(ctx);
    return inTransaction(ctx, async (tx) => tx.repo(PaymentLink).save(tx.repo(PaymentLink).create({
      businessId: tx.requireBusiness(),
      livemode: tx.livemode,
      token: `plink_${tx.livemode ? 'live' : 'test'}_${crypto.randomBytes(16).toString('base64url')}`,
      name: data.name,
      description: data.description ?? null,
      amount,
      currency,
      active: true,
      allowRecurring: data.allowRecurring ?? false,
      recurringInterval: data.allowRecurring ? data.recurringInterval ?? 'monthly' : null,
      successUrl: data.successUrl ?? null,
      metadata: data.metadata ?? null,
    })));
  }

  async get(ctx: RequestContext, id: string): Promise<PaymentLink> {
    ctx.requireRole(...ALL_ROLES);
    return this.find(ctx, id);
  }

  async listPage(ctx: RequestContext, query: unknown): Promise<OffsetPage<PaymentLink>> {
    ctx.requireRole(...ALL_ROLES);
    const filters = parseInput(listSchema, query ?? {});
    return offsetPage(this.filtered(ctx, filters.active), filters.page, filters.limit);
  }

  async connection(ctx: RequestContext, input: unknown, request: PageRequest): Promise<Page<PaymentLink>> {
    ctx.requireRole(...ALL_ROLES);
    const filters = parseInput(listSchema, input ?? {});
    return keysetPage(this.filtered(ctx, filters.active), 'link', request, { active: filters.active });
  }

  async byIds(ctx: RequestContext, ids: string[]): Promise<PaymentLink[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return ctx.repo(PaymentLink).createQueryBuilder('link')
      .where('link.id IN (:...ids) AND link.business_id = :businessId AND link.livemode = :livemode', { ids: valid, businessId: ctx.requireBusiness(), livemode: ctx.livemode })
      .getMany();
  }

  /** Stops the link from opening new sessions; deactivating an inactive link changes nothing. */
  async deactivate(ctx: RequestContext, id: string): Promise<PaymentLink> {
    ctx.requireRole(...WRITE_ROLES);
    return inTransaction(ctx, async (tx) => {
      const link = await this.find(tx, id);
      if (!link.active) return link;
      link.active = false;
      link.deactivatedAt = new Date();
      return tx.repo(PaymentLink).save(link);
    });
  }

  /** GET /pay/<token>: opens a new checkout session for the link (the token is public; anyone may pay). */
  async visit(ctx: RequestContext, token: string): Promise<LinkVisit> {
    const link = TOKEN.test(token) ? await ctx.repo(PaymentLink).findOne({ where: { token } }) : null;
    if (!link) throw notFound('Payment link');
    const system = ctx.asSystem('payment-link', link.businessId, link.livemode ? Mode.LIVE : Mode.TEST);
    if (!link.active) {
      const business = await ctx.repo(Business).findOne({ select: { id: true, name: true }, where: { id: link.businessId } });
      return { kind: 'inactive', link, merchantName: business?.name ?? 'Merchant' };
    }
    const session = await inTransaction(system, (tx) => this.checkout.open(tx, {
      amount: link.amount, currency: link.currency, customerEmail: null, successUrl: link.successUrl, description: link.description ?? link.name,
      metadata: link.metadata, source: CheckoutSessionSource.PAYMENT_LINK, sourceId: link.id,
      recurringInterval: link.allowRecurring ? link.recurringInterval : null,
    }));
    return { kind: 'session', checkoutUrl: this.checkout.urlOf(session) };
  }

  private async find(ctx: RequestContext, id: string): Promise<PaymentLink> {
    const link = isUuid(id) ? await ctx.repo(PaymentLink).findOne({ where: { id, businessId: ctx.requireBusiness(), livemode: ctx.livemode } }) : null;
    if (!link) throw notFound('Payment link');
    return link;
  }

  private filtered(ctx: RequestContext, active: boolean | undefined) {
    const query = ctx.repo(PaymentLink).createQueryBuilder('link')
      .where('link.business_id = :businessId AND link.livemode = :livemode', { businessId: ctx.requireBusiness(), livemode: ctx.livemode })
      .orderBy('link.created_at', 'DESC').addOrderBy('link.id', 'DESC');
    if (active !== undefined) query.andWhere('link.active = :active', { active });
    return query;
  }
}
