import { In } from 'typeorm';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { FieldErrors, validationError } from '../shared/errors';
import { findOwned } from '../shared/tenancy';
import { isUuid } from '../shared/ids';
import { MAX_AMOUNT_MINOR, normalizeCurrency } from '../shared/money';
import { KeysetQuery, ListPage, pageSize, toPage } from '../shared/pagination';
import { SettlementService, V1Payment } from '../payments';
import { V1EventName, V1Events, V1EventService } from '../webhooks';
import { WebhookTargetPolicy } from '../shared/url-policy';
import { CheckoutService, SESSION_LIFETIME_MS } from './checkout.service';
import { CheckoutSession, CheckoutSessionSource, CheckoutSessionStatus } from './checkout-session.entity';
import { CreateV1PaymentCommand, V1PaymentFilters, V1PaymentStatus } from './v1-payment.commands';

/** A `/v1` payment as the surface shows it: its checkout session in `/v1` terms. */
export interface V1PaymentView {
  id: string;
  status: V1PaymentStatus;
  amount: bigint;
  currency: string;
  paymentUrl: string;
  expiresAt: Date;
  settleIn: string;
  description: string | null;
  redirectUrl: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: Date;
}

const STATUS_OF: Record<CheckoutSessionStatus, V1PaymentStatus> = {
  [CheckoutSessionStatus.OPEN]: V1PaymentStatus.PENDING,
  [CheckoutSessionStatus.COMPLETED]: V1PaymentStatus.COMPLETED,
  [CheckoutSessionStatus.LOCKED]: V1PaymentStatus.FAILED,
  [CheckoutSessionStatus.EXPIRED]: V1PaymentStatus.EXPIRED,
};
const SESSION_STATUS_OF: Record<V1PaymentStatus, CheckoutSessionStatus> = {
  [V1PaymentStatus.PENDING]: CheckoutSessionStatus.OPEN,
  [V1PaymentStatus.COMPLETED]: CheckoutSessionStatus.COMPLETED,
  [V1PaymentStatus.FAILED]: CheckoutSessionStatus.LOCKED,
  [V1PaymentStatus.EXPIRED]: CheckoutSessionStatus.EXPIRED,
};

/** The `/v1` event a session's end announces. */
const EVENT_OF: Partial<Record<CheckoutSessionStatus, V1EventName>> = {
  [CheckoutSessionStatus.COMPLETED]: V1Events.PAYMENT_COMPLETED,
  [CheckoutSessionStatus.LOCKED]: V1Events.PAYMENT_FAILED,
  [CheckoutSessionStatus.EXPIRED]: V1Events.PAYMENT_EXPIRED,
};

/**
 * `/v1` payments (design section 11): each is a hosted checkout session (source `v1`), so the
 * hosted page, its card rules, the 24-hour expiry job and the ledger are the checkout domain's.
 * This service adds only what `/v1` knows: `settle_in` (the card payment that pays the session
 * settles into the wallet of that currency, converted at the FX rate of settlement time by the
 * payments domain's SettlementService, which reads it from the V1Payment row), the per-payment `webhook_url`, the
 * lowercase statuses, its list, and its events (`payment.completed`, `payment.failed` when the
 * page locks the payment after too many failed attempts, `payment.expired`), each written in the
 * transaction of the session's change by V1EventService.
 */
export class V1PaymentService {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly events: V1EventService,
    private readonly webhookTargets: WebhookTargetPolicy,
    private readonly settlements: SettlementService,
  ) {}

  async create(ctx: RequestContext, command: CreateV1PaymentCommand): Promise<V1PaymentView> {
    ctx.requireRole(...WRITE_ROLES);
    const currency = normalizeCurrency(command.currency);
    const settleIn = command.settleIn === null ? currency : normalizeCurrency(command.settleIn, 'settleIn');
    const errors: FieldErrors = {};
    if (command.amount <= 0n) errors.amount = ['must be greater than zero'];
    else if (command.amount > MAX_AMOUNT_MINOR) errors.amount = [`must be at most ${MAX_AMOUNT_MINOR}`];
    for (const [field, url] of [
      ['redirectUrl', command.redirectUrl],
      ['webhookUrl', command.webhookUrl],
    ] as const) {
      const refusal = url ? await this.webhookTargets.refusal(url, ctx.livemode) : null;
      if (refusal) errors[field] = [refusal];
    }
    // Another currency is converted at settlement: the FX provider of this mode must quote the pair.
    const conversionRefusal = await this.settlements.conversionRefusal(ctx, currency, settleIn);
    if (conversionRefusal) errors.settleIn = [conversionRefusal];
    if (Object.keys(errors).length > 0) throw validationError(errors);
    // One clock for both, so that expires_at is exactly 24 hours after created_at: the business's
    // (the test clock in the sandbox, which also drives the expiry: payment.expired).
    const createdAt = await this.checkout.now(ctx);
    return inTransaction(ctx, async (tx) => {
      const session = await this.checkout.open(tx, {
        amount: command.amount,
        currency,
        customerEmail: null,
        successUrl: command.redirectUrl,
        description: command.description,
        metadata: command.metadata,
        source: CheckoutSessionSource.V1,
        sourceId: null,
        expiresAt: new Date(createdAt.getTime() + SESSION_LIFETIME_MS),
      });
      const payment = await tx.repo(V1Payment).save(
        tx.repo(V1Payment).create({
          id: session.id,
          businessId: session.businessId,
          livemode: session.livemode,
          settleIn,
          webhookUrl: command.webhookUrl,
          createdAt,
        }),
      );
      return this.viewOf(payment, session);
    });
  }

  async get(ctx: RequestContext, id: string): Promise<V1PaymentView> {
    ctx.requireRole(...ALL_ROLES);
    const payment = await findOwned(ctx, V1Payment, id, 'Payment');
    return this.viewOf(payment, await ctx.repo(CheckoutSession).findOneByOrFail({ id: payment.id }));
  }

  /** Newest first; `after` is the id of a payment of the list (the last one of the previous page), its cursor. */
  async list(ctx: RequestContext, filters: V1PaymentFilters, page: KeysetQuery): Promise<ListPage<V1PaymentView>> {
    ctx.requireRole(...ALL_ROLES);
    const limit = pageSize(page.first, undefined, 'limit');
    const query = ctx
      .repo(V1Payment)
      .createQueryBuilder('payment')
      .innerJoin(CheckoutSession, 'session', 'session.id = payment.id')
      .where('payment.business_id = :businessId AND payment.livemode = :livemode', {
        businessId: ctx.requireBusiness(),
        livemode: ctx.livemode,
      })
      .orderBy('payment.created_at', 'DESC')
      .addOrderBy('payment.id', 'DESC')
      .limit(limit + 1);
    if (filters.status) query.andWhere('session.status = :status', { status: SESSION_STATUS_OF[filters.status] });
    if (page.after !== null) {
      const anchor = isUuid(page.after)
        ? await ctx.repo(V1Payment).findOne({
            select: { id: true },
            where: { id: page.after, businessId: ctx.requireBusiness(), livemode: ctx.livemode },
          })
        : null;
      if (!anchor) throw validationError({ after: ['must be the id of a payment of this account'] });
      // The anchor's own created_at, compared in SQL at full (microsecond) precision.
      query.andWhere(
        '(payment.created_at, payment.id) < (SELECT a.created_at, a.id FROM v1_payments a WHERE a.id = :after)',
        { after: anchor.id },
      );
    }
    const rows = toPage(await query.getMany(), limit, (row) => row.id);
    const sessions =
      rows.items.length === 0
        ? []
        : await ctx.repo(CheckoutSession).findBy({ id: In(rows.items.map((row) => row.id)) });
    const sessionOf = new Map(sessions.map((session) => [session.id, session]));
    return {
      ...rows,
      items: rows.items.map((row) => this.viewOf(row, sessionOf.get(row.id)!)),
      cursorOf: (payment) => payment.id,
    };
  }

  private viewOf(payment: V1Payment, session: CheckoutSession): V1PaymentView {
    return {
      id: payment.id,
      status: STATUS_OF[session.status],
      amount: session.amount,
      currency: session.currency,
      paymentUrl: this.checkout.urlOf(session),
      expiresAt: session.expiresAt,
      settleIn: payment.settleIn,
      description: session.description,
      redirectUrl: session.successUrl,
      metadata: session.metadata,
      createdAt: payment.createdAt,
    };
  }

  /**
   * The session of a `/v1` payment left OPEN (in that transaction): its event, to the payment's
   * `webhook_url` and the business's webhook URL of the mode.
   */
  /** A `/v1` payment's session left OPEN (`checkout.session-ended`, in its transaction): its `/v1` event. */
  async announce(tx: RequestContext, session: CheckoutSession): Promise<void> {
    const name = EVENT_OF[session.status];
    const payment = await tx.repo(V1Payment).findOneBy({ id: session.id });
    if (!name || !payment) return;
    await this.events.record(tx, {
      businessId: session.businessId,
      livemode: session.livemode,
      name,
      data: v1PaymentData(this.viewOf(payment, session)),
      alsoTo: [payment.webhookUrl],
    });
  }
}

/** A `/v1` payment as its receivers and readers see it: snake_case, `amount` in the smallest unit. */
export type V1PaymentObject = {
  id: string;
  status: V1PaymentView['status'];
  amount: number;
  currency: string;
  payment_url: string;
  expires_at: string;
  settle_in: string;
  description: string | null;
  redirect_url: string | null;
  metadata: Record<string, unknown> | null;
  created_at: string;
};

/**
 * The payment as `GET /v1/payments/:id` answers it and as the `data` of a `payment.*` event carries
 * it at the moment of the change (docs/alt-v1.md, Events): one mapping for both.
 */
export function v1PaymentData(payment: V1PaymentView): V1PaymentObject {
  return {
    id: payment.id,
    status: payment.status,
    amount: Number(payment.amount),
    currency: payment.currency,
    payment_url: payment.paymentUrl,
    expires_at: payment.expiresAt.toISOString(),
    settle_in: payment.settleIn,
    description: payment.description,
    redirect_url: payment.redirectUrl,
    metadata: payment.metadata,
    created_at: payment.createdAt.toISOString(),
  };
}
