import { CHARGE_RECURRING_GIFT_TASK } from './recurring-gifts.job-names';
import { SessionCompleted } from '../checkout';
import { CustomerService, PaymentMethod, vaultedCardOf } from '../customers';
import { EventService } from '../events/event.service';
import { Mode } from '../shared/modes';
import { awaitsAuthentication, Payment, PaymentService, PaymentSource, vaultedOf } from '../payments';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, isDomainError } from '../shared/errors';
import { IdempotencyErrorCode } from '../idempotency';
import { enqueueJob } from '../shared/jobs';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { findOwned, lockOwned } from '../shared/tenancy';
import { addInterval } from './interval';
import { RecurringGiftFilters } from './recurring-gift.commands';
import { RecurringGift, RecurringGiftStatus } from './recurring-gift.entity';
import { recurringGiftAllows, recurringGiftTransition } from './recurring-gift.states';
import { RecurringGiftEvent, chargeFailed, chargeSucceeded } from './recurring-gifts.events';

export { CHARGE_RECURRING_GIFT_TASK };

/** One charge may hold a gift this long; a concurrent charge of the same gift is skipped (job) or refused (charge-now). */
const CLAIM_MS = 120_000;

export interface RecurringGiftSettings {
  /** Consecutive failed charges after which the gift is PAUSED. */
  maxFailures: number;
  /** Delay before a failed charge is tried again, in seconds. */
  retryDelaySeconds: number;
}

type ChargeResult =
  { payment: Payment; error: null } | { payment: Payment | null; error: { code: string; message: string } };

/**
 * Recurring gifts on payment links. A payer who opts in on the page of a link that allows it has
 * the card saved and a gift created when the session is paid (same transaction); that first
 * payment is the first gift. A job per gift, enqueued with nextChargeAt, charges the saved card
 * every interval: success counts and schedules the next; failure retries after a delay until
 * `maxFailures` consecutive failures pause the gift.
 */
export class RecurringGiftService {
  constructor(
    private readonly settings: RecurringGiftSettings,
    private readonly payments: PaymentService,
    private readonly customers: CustomerService,
    private readonly events: EventService,
  ) {}

  async get(ctx: RequestContext, id: string): Promise<RecurringGift> {
    ctx.requireRole(...ALL_ROLES);
    return this.find(ctx, id);
  }

  async list(ctx: RequestContext, filters: RecurringGiftFilters, page: PageQuery): Promise<ListPage<RecurringGift>> {
    ctx.requireRole(...ALL_ROLES);
    const query = newestFirst(ctx, RecurringGift, 'gift');
    if (filters.status) query.andWhere('gift.status = :status', { status: filters.status });
    if (filters.paymentLinkId)
      query.andWhere('gift.payment_link_id = :paymentLinkId', { paymentLinkId: filters.paymentLinkId });
    return paginate(query, 'gift', page, { status: filters.status, paymentLinkId: filters.paymentLinkId });
  }

  /** Stops the gift for good; cancelling a cancelled gift changes nothing. */
  async cancel(ctx: RequestContext, id: string): Promise<RecurringGift> {
    ctx.requireRole(...WRITE_ROLES);
    return inTransaction(ctx, async (tx) => {
      const gift = await lockOwned(tx, RecurringGift, id, 'Recurring gift');
      const status = recurringGiftTransition(gift.status, 'cancel');
      if (status === gift.status) return gift;
      gift.status = status;
      gift.cancelledAt = new Date();
      gift.nextChargeAt = null;
      return tx.repo(RecurringGift).save(gift);
    });
  }

  /** PAUSED → ACTIVE with the failure count reset; the next charge is one interval from now (never at once). */
  async resume(ctx: RequestContext, id: string): Promise<RecurringGift> {
    ctx.requireRole(...WRITE_ROLES);
    return inTransaction(ctx, async (tx) => {
      const gift = await lockOwned(tx, RecurringGift, id, 'Recurring gift');
      const status = recurringGiftTransition(gift.status, 'resume');
      if (status === gift.status) return gift;
      gift.status = status;
      gift.failureCount = 0;
      gift.pausedAt = null;
      await this.schedule(tx, gift, addInterval(new Date(), gift.interval));
      return tx.repo(RecurringGift).save(gift);
    });
  }

  /** Sandbox helper: charges an ACTIVE gift now, whatever its nextChargeAt; the result counts like a scheduled charge. */
  async sandboxChargeNow(ctx: RequestContext, id: string): Promise<RecurringGift> {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    const gift = await this.find(ctx, id);
    recurringGiftTransition(gift.status, 'charge');
    const charged = await this.charge(this.systemFor(ctx, gift), gift.id, { force: true });
    if (!charged) throw new DomainError(ErrorCode.CONFLICT, 'A charge of this recurring gift is already in progress');
    return charged;
  }

  /** The per-gift job: charges the gift when it is still ACTIVE and due (an outdated job does nothing). */
  async chargeDue(system: RequestContext, id: string): Promise<void> {
    const gift = await system.repo(RecurringGift).findOne({ where: { id } });
    if (!gift) return;
    await this.charge(this.systemFor(system, gift), id, { force: false });
  }

  /** The session of a link was paid (`checkout.session-completed`): when the payer opted in, save the card and start the gift. */
  async startFromSession(tx: RequestContext, { session, payment }: SessionCompleted): Promise<void> {
    if (!session.recurringOptIn || !session.recurringInterval) return;
    const { customer, paymentMethod } = await this.customers.saveCard(tx, {
      email: payment.email,
      card: vaultedOf(payment),
    });
    const gift = await tx.repo(RecurringGift).save(
      tx.repo(RecurringGift).create({
        businessId: session.businessId,
        livemode: session.livemode,
        paymentLinkId: session.sourceId!,
        checkoutSessionId: session.id,
        customerId: customer.id,
        paymentMethodId: paymentMethod.id,
        email: payment.email,
        amount: session.amount,
        currency: session.currency,
        interval: session.recurringInterval,
        status: RecurringGiftStatus.ACTIVE,
        lastChargeAt: payment.capturedAt,
        lastPaymentId: payment.id,
      }),
    );
    await this.schedule(tx, gift, addInterval(new Date(), gift.interval));
    await tx.repo(RecurringGift).save(gift);
  }

  // ---------------------------------------------------------------- internals

  /**
   * One charge: claim the gift (under its lock), charge the saved card outside any transaction,
   * then record the outcome under the lock again. Returns null when another charge holds the gift.
   */
  private async charge(
    system: RequestContext,
    id: string,
    { force }: { force: boolean },
  ): Promise<RecurringGift | null> {
    const claimed = await inTransaction(system, async (tx) => {
      const gift = await lockOwned(tx, RecurringGift, id, 'Recurring gift');
      if (!recurringGiftAllows(gift.status, 'charge')) return force ? null : undefined;
      if (!force && (!gift.nextChargeAt || gift.nextChargeAt.getTime() > Date.now() + 1000)) return undefined;
      if (gift.claimedUntil && gift.claimedUntil.getTime() > Date.now()) return null;
      gift.claimedUntil = new Date(Date.now() + CLAIM_MS);
      await tx.repo(RecurringGift).save(gift);
      const method = await tx
        .repo(PaymentMethod)
        .findOne({ where: { id: gift.paymentMethodId, businessId: gift.businessId, livemode: gift.livemode } });
      return { gift, method };
    });
    if (claimed === undefined) return this.find(system, id);
    if (claimed === null) return null;

    let result: ChargeResult;
    try {
      result = await this.chargeCard(system, claimed.gift, claimed.method);
    } catch (error) {
      await system.repo(RecurringGift).update({ id }, { claimedUntil: null });
      throw error;
    }
    return inTransaction(system, (tx) => this.record(tx, id, result));
  }

  private async chargeCard(
    system: RequestContext,
    gift: RecurringGift,
    method: PaymentMethod | null,
  ): Promise<ChargeResult> {
    if (!method)
      return {
        payment: null,
        error: { code: 'payment_method_missing', message: 'The saved card is no longer available' },
      };
    let payment: Payment;
    try {
      payment = await this.payments.charge(system, {
        amount: gift.amount,
        currency: gift.currency,
        email: gift.email,
        card: {
          kind: 'vaulted',
          vaulted: vaultedCardOf(method),
          paymentMethodId: method.id,
          customerId: gift.customerId,
        },
        origin: { source: PaymentSource.RECURRING_GIFT, sourceId: gift.id },
      });
      if (awaitsAuthentication(payment)) {
        // The payer is not present for a recurring charge; in the sandbox the challenge completes on its own, so finish it now.
        payment = await this.payments.completeThreeDSecure(system, payment.id).catch(async (error: unknown) => {
          if (error instanceof DomainError && error.code === ErrorCode.CONFLICT)
            return this.payments.get(system, payment.id);
          throw error;
        });
      }
    } catch (error) {
      // A charge still waiting for its acquirer answer (an interrupted earlier run of the same request) is not a failure.
      if (!isDomainError(error) || error.code === IdempotencyErrorCode.IDEMPOTENCY_REQUEST_IN_PROGRESS) throw error;
      return { payment: null, error: { code: error.code.toLowerCase(), message: error.message } };
    }
    if (payment.capturedAt) return { payment, error: null };
    return {
      payment,
      error: {
        code: payment.failureReason ?? 'processing_error',
        message: payment.failureMessage ?? 'The charge did not complete',
      },
    };
  }

  private async record(tx: RequestContext, id: string, result: ChargeResult): Promise<RecurringGift> {
    const gift = await lockOwned(tx, RecurringGift, id, 'Recurring gift');
    const now = new Date();
    gift.claimedUntil = null;
    gift.lastChargeAt = now;
    if (result.payment) gift.lastPaymentId = result.payment.id;
    const active = recurringGiftAllows(gift.status, 'charge');
    if (result.error === null) {
      gift.chargeCount += 1;
      gift.failureCount = 0;
      gift.lastError = null;
      if (active) await this.schedule(tx, gift, addInterval(now, gift.interval));
      await tx.repo(RecurringGift).save(gift);
      await this.emit(tx, chargeSucceeded(gift, result.payment.id));
      return gift;
    }
    gift.failureCount += 1;
    gift.lastError = result.error.message;
    if (active && gift.failureCount >= this.settings.maxFailures) {
      gift.status = recurringGiftTransition(gift.status, 'pause');
      gift.pausedAt = now;
      gift.nextChargeAt = null;
    } else if (active) {
      await this.schedule(tx, gift, new Date(now.getTime() + this.settings.retryDelaySeconds * 1000));
    }
    await tx.repo(RecurringGift).save(gift);
    await this.emit(tx, chargeFailed(gift, result.error, result.payment?.id ?? null));
    return gift;
  }

  /** Sets nextChargeAt and (re)places the gift's one pending job at that time. */
  private async schedule(tx: RequestContext, gift: RecurringGift, at: Date): Promise<void> {
    gift.nextChargeAt = at;
    await enqueueJob(
      tx,
      CHARGE_RECURRING_GIFT_TASK,
      { recurringGiftId: gift.id },
      { runAt: at, jobKey: `recurring-gift:${gift.id}` },
    );
  }

  private systemFor(ctx: RequestContext, gift: RecurringGift): RequestContext {
    return ctx.asSystem('recurring-gifts', gift.businessId, gift.livemode ? Mode.LIVE : Mode.TEST);
  }

  private async find(ctx: RequestContext, id: string): Promise<RecurringGift> {
    return findOwned(ctx, RecurringGift, id, 'Recurring gift');
  }

  private async emit(tx: RequestContext, event: RecurringGiftEvent): Promise<void> {
    await this.events.record(tx, event.type, event.data);
  }
}
