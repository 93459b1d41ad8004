import crypto from 'node:crypto';
import { CheckoutService, CheckoutSessionSource } from '../checkout';
import { Business } from '../identity';
import { Mode } from '../shared/modes';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { notFound, validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { findOwned } from '../shared/tenancy';
import { CreatePaymentLinkCommand, PaymentLinkFilters } from './payment-link.commands';
import { PaymentLink } from './payment-link.entity';

const TOKEN = /^plink_(test|live)_[A-Za-z0-9_-]{22}$/;

/** What visiting a link's public URL leads to. */
export type LinkVisit =
  { kind: 'session'; checkoutPath: string } | { kind: 'inactive'; link: PaymentLink; merchantName: string };

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

  async create(ctx: RequestContext, command: CreatePaymentLinkCommand): Promise<PaymentLink> {
    ctx.requireRole(...WRITE_ROLES);
    if (command.amount <= 0n) throw validationError({ amount: ['must be greater than zero'] });
    if (command.recurringInterval && !command.allowRecurring) {
      throw validationError({ recurringInterval: ['is only allowed with allowRecurring: true'] });
    }
    // Every visit would open a session, and opening one would be refused.
    this.checkout.requireCardPayments(ctx);
    return inTransaction(ctx, async (tx) =>
      tx.repo(PaymentLink).save(
        tx.repo(PaymentLink).create({
          businessId: tx.requireBusiness(),
          livemode: tx.livemode,
          token: `plink_${tx.livemode ? 'live' : 'test'}_${crypto.randomBytes(16).toString('base64url')}`,
          name: command.name,
          description: command.description,
          amount: command.amount,
          currency: command.currency,
          active: true,
          allowRecurring: command.allowRecurring,
          recurringInterval: command.allowRecurring ? (command.recurringInterval ?? 'monthly') : null,
          successUrl: command.successUrl,
          metadata: command.metadata,
        }),
      ),
    );
  }

  async get(ctx: RequestContext, id: string): Promise<PaymentLink> {
    ctx.requireRole(...ALL_ROLES);
    return findOwned(ctx, PaymentLink, id, 'Payment link');
  }

  async list(ctx: RequestContext, filters: PaymentLinkFilters, page: PageQuery): Promise<ListPage<PaymentLink>> {
    ctx.requireRole(...ALL_ROLES);
    const query = newestFirst(ctx, PaymentLink, 'link');
    if (filters.active !== undefined) query.andWhere('link.active = :active', { active: filters.active });
    return paginate(query, 'link', page, { active: filters.active });
  }

  async byIds(ctx: RequestContext, ids: string[]): Promise<PaymentLink[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return ctx
      .repo(PaymentLink)
      .createQueryBuilder('link')
      .where('link.id IN (:...ids) AND link.business_id = :businessId AND link.livemode = :livemode', {
        ids: valid,
        businessId: ctx.requireBusiness(),
        livemode: ctx.livemode,
      })
      .getMany();
  }

  /** Stops the link from opening new sessions; deactivating an inactive link changes nothing. */
  async deactivate(ctx: RequestContext, id: string): Promise<PaymentLink> {
    ctx.requireRole(...WRITE_ROLES);
    return inTransaction(ctx, async (tx) => {
      const link = await findOwned(tx, PaymentLink, id, 'Payment link');
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
      const business = await ctx
        .repo(Business)
        .findOne({ select: { id: true, name: true }, where: { id: link.businessId } });
      return { kind: 'inactive', link, merchantName: business?.name ?? 'Merchant' };
    }
    const session = await inTransaction(system, (tx) =>
      this.checkout.open(tx, {
        amount: link.amount,
        currency: link.currency,
        customerEmail: null,
        successUrl: link.successUrl,
        description: link.description ?? link.name,
        metadata: link.metadata,
        source: CheckoutSessionSource.PAYMENT_LINK,
        sourceId: link.id,
        recurringInterval: link.allowRecurring ? link.recurringInterval : null,
      }),
    );
    return { kind: 'session', checkoutPath: this.checkout.pathOf(session) };
  }
}
