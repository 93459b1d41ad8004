import crypto from 'node:crypto';
import { Mode } from '../shared/modes';
import { ClockAdvancing, ClockService, ClockSlice } from '../sandbox';
import { DomainEventBus } from '../shared/domain-events';
import { EventService } from '../events/event.service';
import { awaitsAuthentication, Payment, PaymentService } from '../payments';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, validationError } from '../shared/errors';
import { enqueueJob } from '../shared/jobs';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { findOwned } from '../shared/tenancy';
import { isUuid } from '../shared/ids';
import { CardTestingGuard, CheckoutAttemptLimits } from './card-testing';
import {
  CheckoutPaymentMethod,
  CheckoutSession,
  CheckoutSessionSource,
  CheckoutSessionStatus,
  RecurringInterval,
} from './checkout-session.entity';
import { checkoutSessionAllows, checkoutSessionTransition } from './checkout-session.states';
import {
  CLAIM_MS,
  EXPIRE_CHECKOUT_SESSION_TASK,
  isClaimed,
  lockSession,
  systemContextFor,
} from './checkout-session.store';
import { CheckoutSessionFilters, CreateCheckoutSessionCommand } from './checkout.commands';
import { sessionCompleted } from './checkout.events';
import { CheckoutSessionChange, CheckoutTopic } from './checkout.topics';
import { TesseraPubSub } from '../events/pubsub';
import { HostedCheckoutService } from './hosted-checkout.service';

export type { CheckoutAttemptLimits } from './card-testing';
export type {
  AuthenticationReturnOutcome,
  CheckoutOutcome,
  CheckoutRefusal,
  CheckoutView,
} from './hosted-checkout.service';
export { CORRECT_THE_FIELDS } from './hosted-checkout.service';

export { EXPIRE_CHECKOUT_SESSION_TASK, RECONCILE_CHECKOUT_SESSION_TASK } from './checkout-session.store';

/** Sessions opened through the API or a payment link can be paid for 24 hours. */
export const SESSION_LIFETIME_MS = 24 * 3600 * 1000;

export interface CheckoutSettings {
  publicBaseUrl: string;
  sandbox3dsAutoCompleteMs: number;
  attemptLimits: CheckoutAttemptLimits;
}

/** What opens a session: the API, a payment link visit or an invoice being sent. */
export interface SessionSpec {
  amount: bigint;
  currency: string;
  customerEmail: string | null;
  successUrl: string | null;
  cancelUrl?: string | null;
  description: string | null;
  metadata: Record<string, unknown> | null;
  source: CheckoutSessionSource;
  sourceId: string | null;
  recurringInterval?: RecurringInterval | null;
  expiresAt?: Date;
  /** Default: the card form only. */
  paymentMethods?: CheckoutPaymentMethod[];
}

/**
 * Checkout sessions: opening them (the API, payment link visits, invoices), reading them, taking
 * them off sale, completing and expiring them. Paying one on the hosted page is `hosted`
 * (HostedCheckoutService); its card-testing limits are CardTestingGuard. A session is paid at most
 * once: every status change happens under the session row's lock.
 */
export class CheckoutService {
  /** The hosted payment page: shows a session and pays it. */
  readonly hosted: HostedCheckoutService;

  constructor(
    private readonly settings: CheckoutSettings,
    private readonly payments: PaymentService,
    private readonly events: EventService,
    private readonly clock: ClockService,
    private readonly bus: DomainEventBus,
    private readonly pubSub: TesseraPubSub,
  ) {
    this.hosted = new HostedCheckoutService(
      settings,
      payments,
      this,
      new CardTestingGuard(settings.attemptLimits, events, (tx, session) => this.sessionEnded(tx, session)),
    );
  }

  /** "Now" on the session's business clock: the test clock in the sandbox, the wall clock in live mode. */
  now(ctx: RequestContext): Promise<Date> {
    return this.clock.now(ctx);
  }

  /** A test clock is advancing (`sandbox.clock-advancing`): whether an open session would expire by then. */
  async countExpiring(tx: RequestContext, advancing: ClockAdvancing): Promise<void> {
    const other = (await this.openDueBy(tx, advancing.until, 1)).length > 0;
    advancing.count({ runs: 0, payouts: 0, stopBefore: null, other });
  }

  /**
   * A slice of a test clock's advance (`sandbox.clock-slice`): expires the open sessions (API,
   * payment links, invoices, /v1 payments) it passed, within its budget.
   */
  async expireOnAdvance(ctx: RequestContext, slice: ClockSlice): Promise<void> {
    const owner = ctx.forBusiness(slice.window.businessId, Mode.TEST);
    await slice.fire((budget) => this.expireUntil(owner, slice.window.until, budget));
  }

  /**
   * Up to `limit` open test-mode sessions of the business whose expiresAt `until` passed expire, in
   * order (a payment under way is left to its own job).
   */
  private async expireUntil(ctx: RequestContext, until: Date, limit: number): Promise<{ used: number; done: boolean }> {
    const due = await this.openDueBy(ctx, until, limit);
    for (const { id } of due) await this.expireDue(ctx, id);
    // A full slice of sessions all left open (each waiting on its own payment) would be picked again: stop there.
    const [{ open }]: Array<{ open: number }> = await ctx.em.query(
      `SELECT count(*)::int AS open FROM checkout_sessions WHERE id = ANY($1) AND status = $2`,
      [due.map(({ id }) => id), CheckoutSessionStatus.OPEN],
    );
    return { used: due.length, done: due.length < limit || open === due.length };
  }

  private openDueBy(ctx: RequestContext, until: Date, limit: number): Promise<Array<{ id: string }>> {
    return ctx.em.query(
      `SELECT id FROM checkout_sessions WHERE business_id = $1 AND livemode = false AND status = $2 AND expires_at <= $3
         AND (claimed_until IS NULL OR claimed_until < now()) ORDER BY expires_at, id LIMIT $4`,
      [ctx.requireBusiness(), CheckoutSessionStatus.OPEN, until, limit],
    );
  }

  /**
   * Tells the product behind the session's source that the session left OPEN (in the transaction
   * that moved it), and the live subscribers once that transaction commits.
   */
  private async sessionEnded(tx: RequestContext, session: CheckoutSession): Promise<void> {
    await this.bus.publish(tx, 'checkout.session-ended', { session });
    this.announce(tx, session, CheckoutSessionStatus.OPEN);
  }

  /** After the commit: `checkoutSessionUpdated`'s subscribers hear of the session. */
  private announce(tx: RequestContext, session: CheckoutSession, previousStatus: CheckoutSessionStatus | null): void {
    const change: CheckoutSessionChange = {
      businessId: session.businessId,
      livemode: session.livemode,
      sessionId: session.id,
      previousStatus,
    };
    tx.afterCommit(() => this.pubSub.publish(CheckoutTopic.CHECKOUT_SESSION, change));
  }

  /** Refuses (422) to offer a card form in a mode that cannot take card payments: sessions, and links that open them. */
  requireCardPayments(ctx: RequestContext): void {
    this.payments.requireCardPayments(ctx);
  }

  /** The checkoutUrl handed to the merchant (on PUBLIC_BASE_URL). */
  urlOf(session: CheckoutSession): string {
    return `${this.settings.publicBaseUrl}${this.pathOf(session)}`;
  }

  /**
   * The hosted page's path. The pages send the payer from one to the next by path, never by
   * PUBLIC_BASE_URL: a page opened under another host name (127.0.0.1 for localhost, a LAN
   * address) must stay on it, since a 303 after a form POST to another origin is blocked by the
   * page's CSP form-action (and that host may not even be reachable from the payer).
   */
  pathOf(session: CheckoutSession): string {
    return `/checkout/${session.token}`;
  }

  /** The 3-D Secure step of the session's payment (a path, like every move between hosted pages). */
  threeDSecurePathOf(session: CheckoutSession): string {
    return `/checkout/3ds/${session.token}`;
  }

  /** Where the payer lands once paid: the merchant's successUrl, or Tessera's receipt page. */
  successUrlOf(session: CheckoutSession): string {
    return session.successUrl ?? `${this.urlOf(session)}/complete`;
  }

  /** Where the payer is sent once paid: the successUrl with `session_id`, or the receipt page (by path). */
  redirectUrlOf(session: CheckoutSession): string {
    if (!session.successUrl) return `${this.pathOf(session)}/complete`;
    const url = new URL(session.successUrl);
    url.searchParams.set('session_id', session.id);
    return url.toString();
  }

  /** POST /business/checkout/session (and /business/payment/session). */
  async create(ctx: RequestContext, command: CreateCheckoutSessionCommand): Promise<CheckoutSession> {
    ctx.requireRole(...WRITE_ROLES);
    if (command.amount <= 0n) throw validationError({ amount: ['must be greater than zero'] });
    const methods = [...new Set(command.paymentMethods)];
    if (methods.length === 0) throw validationError({ paymentMethods: ['must offer at least one payment method'] });
    const rails = methods.filter((method) => method !== CheckoutPaymentMethod.CARD);
    // Before the transaction, as a check of the command: the collections area refuses rails that cannot collect the currency.
    if (rails.length > 0)
      await this.bus.publish(ctx, 'checkout.local-rails-offered', { currency: command.currency, rails });
    return inTransaction(ctx, (tx) =>
      this.open(tx, { ...command, paymentMethods: methods, source: CheckoutSessionSource.API, sourceId: null }),
    );
  }

  /**
   * Opens a session in the caller's transaction (used by create, payment link visits and invoices).
   * Every session is opened here, so here is where a mode that cannot take card payments (live
   * without an acquirer) refuses one (422), before anything is written.
   */
  async open(tx: RequestContext, spec: SessionSpec): Promise<CheckoutSession> {
    const paymentMethods = spec.paymentMethods ?? [CheckoutPaymentMethod.CARD];
    if (paymentMethods.includes(CheckoutPaymentMethod.CARD)) this.requireCardPayments(tx);
    // Stamped on the business's clock (the test clock in the sandbox), which also drives the expiry.
    const offsetMs = tx.livemode ? 0 : (await this.clock.offsetOf(tx, tx.requireBusiness())) * 1000;
    const now = new Date(Date.now() + offsetMs);
    const session = await tx.repo(CheckoutSession).save(
      tx.repo(CheckoutSession).create({
        businessId: tx.requireBusiness(),
        livemode: tx.livemode,
        token: `cs_${tx.livemode ? 'live' : 'test'}_${crypto.randomBytes(32).toString('base64url')}`,
        status: CheckoutSessionStatus.OPEN,
        amount: spec.amount,
        currency: spec.currency,
        customerEmail: spec.customerEmail,
        successUrl: spec.successUrl,
        cancelUrl: spec.cancelUrl ?? null,
        description: spec.description,
        metadata: spec.metadata,
        source: spec.source,
        sourceId: spec.sourceId,
        recurringInterval: spec.recurringInterval ?? null,
        paymentMethods,
        collectionId: null,
        expiresAt: spec.expiresAt ?? new Date(now.getTime() + SESSION_LIFETIME_MS),
        createdAt: now,
      }),
    );
    // The job runs on the wall clock: when the session's expiresAt comes on the business's clock (an advance may bring it sooner).
    await enqueueJob(
      tx,
      EXPIRE_CHECKOUT_SESSION_TASK,
      { sessionId: session.id },
      { runAt: new Date(session.expiresAt.getTime() - offsetMs), jobKey: `checkout-expire:${session.id}` },
    );
    this.announce(tx, session, null);
    return session;
  }

  async get(ctx: RequestContext, id: string): Promise<CheckoutSession> {
    ctx.requireRole(...ALL_ROLES);
    return findOwned(ctx, CheckoutSession, id, 'Checkout session');
  }

  async list(
    ctx: RequestContext,
    filters: CheckoutSessionFilters,
    page: PageQuery,
  ): Promise<ListPage<CheckoutSession>> {
    ctx.requireRole(...ALL_ROLES);
    const query = newestFirst(ctx, CheckoutSession, 'session');
    if (filters.status) query.andWhere('session.status = :status', { status: filters.status });
    if (filters.source) query.andWhere('session.source = :source', { source: filters.source });
    return paginate(query, 'session', page, { status: filters.status, source: filters.source });
  }

  async byIds(ctx: RequestContext, ids: string[]): Promise<CheckoutSession[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return ctx
      .repo(CheckoutSession)
      .createQueryBuilder('session')
      .where('session.id IN (:...ids) AND session.business_id = :businessId AND session.livemode = :livemode', {
        ids: valid,
        businessId: ctx.requireBusiness(),
        livemode: ctx.livemode,
      })
      .getMany();
  }

  /**
   * Takes an OPEN session off sale (a voided invoice), in the caller's transaction. Refused while
   * a payment of it is being made or waits for 3-D Secure, and once it is paid.
   */
  async withdraw(tx: RequestContext, sessionId: string): Promise<void> {
    const session = await lockSession(tx, sessionId);
    const status = checkoutSessionTransition(session.status, 'withdraw');
    if (status === session.status) return;
    if (isClaimed(session) || awaitsAuthentication(await this.attemptOf(tx, session))) {
      throw new DomainError(
        ErrorCode.CONFLICT,
        'A payment of this checkout session is in progress; try again in a minute',
      );
    }
    const previousStatus = session.status;
    session.status = status;
    await tx.repo(CheckoutSession).save(session);
    this.announce(tx, session, previousStatus);
  }

  /** The session's latest payment attempt, if any. */
  async attemptOf(ctx: RequestContext, session: CheckoutSession): Promise<Payment | null> {
    return session.attemptPaymentId ? this.payments.get(ctx, session.attemptPaymentId) : null;
  }

  /**
   * The session is paid (under its lock, in the caller's transaction): COMPLETED once, the
   * completion event, and the consequence of its source (invoice paid, recurring gift started).
   */
  async complete(tx: RequestContext, session: CheckoutSession, payment: Payment): Promise<void> {
    session.status = checkoutSessionTransition(session.status, 'complete');
    session.paymentId = payment.id;
    session.attemptPaymentId = payment.id;
    session.completedAt = new Date();
    session.claimedUntil = null;
    await tx.repo(CheckoutSession).save(session);
    const event = sessionCompleted(session, { paymentId: payment.id });
    await this.events.record(tx, event.type, event.data);
    await this.bus.publish(tx, 'checkout.session-completed', { session, payment });
    await this.sessionEnded(tx, session);
  }

  /**
   * A collection of the session (a local rail) completed, in the transaction that completed it:
   * the session is COMPLETED once, under its lock. A session already paid otherwise (a card, another
   * rail) stays as it is; the collection's own completion stands and the merchant sees both.
   * Only API sessions offer local rails, so no `checkout.session-completed` (invoice, gift) is told here.
   */
  async completeWithCollection(tx: RequestContext, sessionId: string, collectionId: string): Promise<boolean> {
    const session = await lockSession(tx, sessionId);
    if (!checkoutSessionAllows(session.status, 'complete')) return false;
    session.status = checkoutSessionTransition(session.status, 'complete');
    session.collectionId = collectionId;
    session.completedAt = new Date();
    session.claimedUntil = null;
    await tx.repo(CheckoutSession).save(session);
    const event = sessionCompleted(session, { paymentId: null, collectionId });
    await this.events.record(tx, event.type, event.data);
    await this.sessionEnded(tx, session);
    return true;
  }

  /** Expiry job: an OPEN session past expiresAt becomes EXPIRED, unless a payment of it is still under way. */
  async expireDue(system: RequestContext, sessionId: string): Promise<void> {
    const row = await system.repo(CheckoutSession).findOne({ where: { id: sessionId } });
    if (!row || !checkoutSessionAllows(row.status, 'expire')) return;
    await inTransaction(systemContextFor(system, row), async (tx) => {
      const session = await lockSession(tx, sessionId);
      if (!checkoutSessionAllows(session.status, 'expire') || session.expiresAt > (await this.clock.now(tx))) return;
      const attempt = await this.attemptOf(tx, session);
      if (attempt?.capturedAt) {
        await this.complete(tx, session, attempt);
        return;
      }
      if (isClaimed(session) || awaitsAuthentication(attempt)) {
        await enqueueJob(
          tx,
          EXPIRE_CHECKOUT_SESSION_TASK,
          { sessionId },
          { runAt: new Date(Date.now() + CLAIM_MS), jobKey: `checkout-expire:${sessionId}` },
        );
        return;
      }
      session.status = checkoutSessionTransition(session.status, 'expire');
      await tx.repo(CheckoutSession).save(session);
      await this.sessionEnded(tx, session);
    });
  }

  /** Reconcile job: completes a session whose 3-D Secure payment finished without the payer coming back. */
  async reconcile(system: RequestContext, sessionId: string): Promise<void> {
    await this.hosted.reconcile(system, sessionId);
  }
}
