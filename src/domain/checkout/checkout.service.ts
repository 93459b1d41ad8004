import crypto from 'node:crypto';
import { z } from 'zod';
import { EventService } from '../events/event.service';
import { Business, Mode } from '../identity/identity.entities';
import { Payment, PaymentSource, PaymentStatus } from '../payments/payment.entities';
import { PaymentService } from '../payments/payment.service';
import { cardSchema } from '../payments/card';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, FieldErrors, notFound } from '../shared/errors';
import { enqueueJob } from '../shared/jobs';
import { normalizeCurrency, positiveMinor, toMajor } from '../shared/money';
import { keysetPage, newestFirst, OffsetPage, offsetPage, Page, PageRequest } from '../shared/pagination';
import { amountSchema, currencySchema, emailSchema, enumFilter, fieldErrorsOf, isUuid, metadataSchema, parseInput, pageParams } from '../../wire/validation';
import { CheckoutLockReason, CheckoutSession, CheckoutSessionSource, CheckoutSessionStatus, RecurringInterval } from './checkout-session.entity';
import { descriptionSchema, optionalUrlSchema, requiredUrlSchema } from './inputs';

export const EXPIRE_CHECKOUT_SESSION_TASK = 'expire_checkout_session';
export const RECONCILE_CHECKOUT_SESSION_TASK = 'reconcile_checkout_session';

/** Sessions opened through the API or a payment link can be paid for 24 hours. */
export const SESSION_LIFETIME_MS = 24 * 3600 * 1000;
/** How long one submit may hold a session while it charges the card. */
const CLAIM_MS = 120_000;
/** How often a session waiting on a 3-D Secure payment is looked at again (when the payer does not come back). */
const RECONCILE_RETRY_MS = 30_000;

export interface CheckoutSettings {
  publicBaseUrl: string;
  sandbox3dsAutoCompleteMs: number;
  attemptLimits: CheckoutAttemptLimits;
}

/**
 * Failed payment attempts allowed before a session is LOCKED (card testing): per session (its
 * lifetime), and within `windowSeconds` per payment link (or invoice: all the sessions it opened)
 * and per card fingerprint at the business.
 */
export interface CheckoutAttemptLimits {
  perSession: number;
  perSource: number;
  perCard: number;
  windowSeconds: number;
}

/** The limit a session reached: which one, how many failed attempts it counted, and the limit. */
interface LimitReached {
  reason: CheckoutLockReason;
  failedAttempts: number;
  limit: number;
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
}

/** Runs in the transaction that completes a session of its source (invoice paid, recurring gift started). */
export type SessionCompletedHandler = (tx: RequestContext, session: CheckoutSession, payment: Payment) => Promise<void>;

/** The hosted page as the payer sees it. */
export interface CheckoutView {
  session: CheckoutSession;
  merchantName: string;
  /** The session has no email: the page asks for it. */
  askEmail: boolean;
  /** The payer may opt in to a recurring gift at session.recurringInterval. */
  offerRecurring: boolean;
}

/** What the hosted page answers, decided by the domain and rendered by the face. */
export type CheckoutOutcome =
  | { kind: 'form'; view: CheckoutView; status: number; errors: FieldErrors; message: string | null; values: CheckoutFormValues }
  | { kind: 'redirect'; url: string }
  | { kind: 'three_ds'; view: CheckoutView; paymentId: string }
  | { kind: 'processing'; view: CheckoutView }
  | { kind: 'expired'; view: CheckoutView }
  | { kind: 'locked'; view: CheckoutView; message: string | null }
  | { kind: 'receipt'; view: CheckoutView };

/** What the form may show again: never the card number or the CVV. */
export interface CheckoutFormValues {
  email?: string;
  expiryMonth?: string;
  expiryYear?: string;
  recurring?: boolean;
}

const createSchema = z.object({
  amount: amountSchema,
  currency: currencySchema,
  customerEmail: emailSchema.nullish(),
  successUrl: requiredUrlSchema,
  cancelUrl: optionalUrlSchema,
  description: descriptionSchema,
  metadata: metadataSchema,
}, { error: 'must be a JSON object' });

const listSchema = z.object({
  ...pageParams,
  status: enumFilter(CheckoutSessionStatus).optional(),
  source: enumFilter(CheckoutSessionSource).optional(),
});

const TOKEN = /^cs_(test|live)_[A-Za-z0-9_-]{43}$/;

const formString = (form: Record<string, unknown>, name: string): string | undefined => {
  const value = form[name];
  return typeof value === 'string' ? value : undefined;
};

/** A form's month or year as a number for the card schema (a blank is missing, anything else not a number). */
const formInteger = (value: string | undefined): number | undefined => {
  if (value === undefined || value.trim() === '') return undefined;
  return /^\s*\d{1,4}\s*$/.test(value) ? Number(value) : Number.NaN;
};

/**
 * Hosted checkout sessions and their page. A session is paid at most once: a submit claims the
 * session row (under its lock) before charging, so a concurrent submit waits instead of charging
 * again, and completing it (status, event, the source's own consequence) happens in one
 * transaction under the same lock.
 */
export class CheckoutService {
  private readonly completedHandlers = new Map<CheckoutSessionSource, SessionCompletedHandler>();

  constructor(
    private readonly settings: CheckoutSettings,
    private readonly payments: PaymentService,
    private readonly events: EventService,
  ) {}

  /** Lets the product behind a source react, in the same transaction, when one of its sessions is paid. */
  onSessionCompleted(source: CheckoutSessionSource, handler: SessionCompletedHandler): void {
    this.completedHandlers.set(source, handler);
  }

  /** Refuses (422) to offer a card form in a mode that cannot take card payments: sessions, and links that open them. */
  requireCardPayments(ctx: RequestContext): void {
    this.payments.requireCardPayments(ctx);
  }

  urlOf(session: CheckoutSession): string {
    return `${this.settings.publicBaseUrl}/checkout/${session.token}`;
  }

  /** Where the payer lands once paid: the merchant's successUrl, or Tessera's receipt page. */
  successUrlOf(session: CheckoutSession): string {
    return session.successUrl ?? `${this.urlOf(session)}/complete`;
  }

  // ---------------------------------------------------------------- merchant API

  /** POST /business/checkout/session (and /business/payment/session). */
  async create(ctx: RequestContext, input: unknown): Promise<CheckoutSession> {
    ctx.requireRole(...WRITE_ROLES);
    const data = parseInput(createSchema, input ?? {});
    const currency = normalizeCurrency(data.currency);
    const amount = positiveMinor(data.amount, currency);
    return inTransaction(ctx, (tx) => this.open(tx, {
      amount, currency, customerEmail: data.customerEmail ?? null, successUrl: data.successUrl, cancelUrl: data.cancelUrl ?? null,
      description: data.description ?? null, metadata: data.metadata ?? null, source: CheckoutSessionSource.API, sourceId: null,
    }));
  }

  /**
   * Opens a session in the caller's transaction (used by create, payment link visits and invoices).
   * Every session is opened here, so here is where a mode that cannot take card payments (live
   * without an acquirer) refuses one (422), before anything is written.
   */
  async open(tx: RequestContext, spec: SessionSpec): Promise<CheckoutSession> {
    this.requireCardPayments(tx);
    const businessId = tx.requireBusiness();
    const session = await tx.repo(CheckoutSession).save(tx.repo(CheckoutSession).create({
      businessId,
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
      expiresAt: spec.expiresAt ?? new Date(Date.now() + SESSION_LIFETIME_MS),
    }));
    await enqueueJob(tx, EXPIRE_CHECKOUT_SESSION_TASK, { sessionId: session.id }, { runAt: session.expiresAt, jobKey: `checkout-expire:${session.id}` });
    return session;
  }

  async get(ctx: RequestContext, id: string): Promise<CheckoutSession> {
    ctx.requireRole(...ALL_ROLES);
    return this.find(ctx, id);
  }

  async listPage(ctx: RequestContext, query: unknown): Promise<OffsetPage<CheckoutSession>> {
    ctx.requireRole(...ALL_ROLES);
    const filters = parseInput(listSchema, query ?? {});
    return offsetPage(this.filtered(ctx, filters), filters.page, filters.limit);
  }

  async connection(ctx: RequestContext, input: unknown, request: PageRequest): Promise<Page<CheckoutSession>> {
    ctx.requireRole(...ALL_ROLES);
    const filters = parseInput(listSchema, input ?? {});
    return keysetPage(this.filtered(ctx, filters), 'session', request, { status: filters.status, source: filters.source });
  }

  async byIds(ctx: RequestContext, ids: string[]): Promise<CheckoutSession[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return ctx.repo(CheckoutSession).createQueryBuilder('session')
      .where('session.id IN (:...ids) AND session.business_id = :businessId AND session.livemode = :livemode', { ids: valid, businessId: ctx.requireBusiness(), livemode: ctx.livemode })
      .getMany();
  }

  /**
   * Takes an OPEN session off sale (a voided invoice), in the caller's transaction. Refused while
   * a payment of it is being made or waits for 3-D Secure, and once it is paid.
   */
  async withdraw(tx: RequestContext, sessionId: string): Promise<void> {
    const session = await this.lock(tx, sessionId);
    if (session.status === CheckoutSessionStatus.COMPLETED) throw new DomainError(ErrorCode.CONFLICT, 'The checkout session is already paid');
    if (session.status === CheckoutSessionStatus.EXPIRED || session.status === CheckoutSessionStatus.LOCKED) return;
    if (this.claimed(session) || (await this.attemptOf(tx, session))?.status === PaymentStatus.REQUIRES_ACTION) {
      throw new DomainError(ErrorCode.CONFLICT, 'A payment of this checkout session is in progress; try again in a minute');
    }
    session.status = CheckoutSessionStatus.EXPIRED;
    await tx.repo(CheckoutSession).save(session);
  }

  // ---------------------------------------------------------------- hosted page (the token is the capability)

  /** GET /checkout/<token>. */
  async showPage(ctx: RequestContext, token: string): Promise<CheckoutOutcome> {
    const session = await this.byToken(ctx, token);
    return inTransaction(this.contextFor(ctx, session), async (tx) => {
      const locked = await this.lock(tx, session.id);
      return (await this.route(tx, locked)) ?? this.form(tx, locked);
    });
  }

  /** POST /checkout/<token>: validates the form, charges the card once, completes the session. */
  async submit(ctx: RequestContext, token: string, form: Record<string, unknown>): Promise<CheckoutOutcome> {
    const found = await this.byToken(ctx, token);
    const system = this.contextFor(ctx, found);
    const values: CheckoutFormValues = {
      email: formString(form, 'email'), expiryMonth: formString(form, 'expiryMonth'), expiryYear: formString(form, 'expiryYear'),
      recurring: found.recurringInterval !== null && ['on', 'true', '1', 'yes'].includes(formString(form, 'recurring') ?? ''),
    };
    const card = cardSchema.safeParse({
      number: formString(form, 'number') ?? '', expiryMonth: formInteger(values.expiryMonth), expiryYear: formInteger(values.expiryYear), cvv: formString(form, 'cvv') ?? '',
    });
    const errors: FieldErrors = card.success ? {} : fieldErrorsOf(card.error);
    let email = found.customerEmail;
    if (!email) {
      const parsed = emailSchema.safeParse(values.email ?? '');
      if (parsed.success) email = parsed.data;
      else errors.email = [values.email ? 'must be a valid email address' : 'is required'];
    }

    // Vaulted before the session is claimed, so that the card's earlier failures can refuse it.
    const vaulted = card.success && email && found.status === CheckoutSessionStatus.OPEN ? await this.payments.vaultCard(system, card.data) : null;

    const claim = await inTransaction(system, async (tx): Promise<CheckoutOutcome | null> => {
      const session = await this.lock(tx, found.id);
      const routed = await this.route(tx, session);
      if (routed) return routed;
      if (Object.keys(errors).length > 0 || !card.success || !email || !vaulted) {
        return this.form(tx, session, { status: 400, errors, message: 'Please correct the highlighted fields.', values });
      }
      if (this.claimed(session)) return { kind: 'processing', view: await this.viewOf(tx, session) };
      const reached = await this.limitReached(tx, session, vaulted.fingerprint);
      if (reached) return this.lockOut(tx, session, reached, null);
      // A payment of this session that was never linked to it (the process died after the charge):
      // adopt it instead of charging the payer again.
      const taken = await this.payments.takenFor(tx, PaymentSource.CHECKOUT_SESSION, session.id);
      if (taken && taken.id !== session.attemptPaymentId) {
        session.attemptPaymentId = taken.id;
        await tx.repo(CheckoutSession).save(session);
        if (taken.status === PaymentStatus.PENDING) return { kind: 'processing', view: await this.viewOf(tx, session) };
        return this.afterAttempt(tx, session, taken, values);
      }
      session.claimedUntil = new Date(Date.now() + CLAIM_MS);
      session.recurringOptIn = values.recurring === true;
      await tx.repo(CheckoutSession).save(session);
      return null;
    });
    if (claim) return claim;

    let payment: Payment | null = null;
    let refusal: string | null = null;
    try {
      payment = await this.payments.charge(system, {
        amount: found.amount, currency: found.currency, email: email!, card: { kind: 'vaulted', vaulted: vaulted! },
        origin: { source: PaymentSource.CHECKOUT_SESSION, sourceId: found.id }, metadata: found.metadata,
      });
    } catch (error) {
      if (!(error instanceof DomainError)) {
        await this.release(system, found.id);
        throw error;
      }
      refusal = error.message;
    }
    return inTransaction(system, async (tx) => {
      const session = await this.lock(tx, found.id);
      session.claimedUntil = null;
      if (payment) session.attemptPaymentId = payment.id;
      await tx.repo(CheckoutSession).save(session);
      if (!payment) return this.form(tx, session, { status: 422, errors: {}, message: `The payment could not be made: ${refusal}`, values });
      return this.afterAttempt(tx, session, payment, values);
    });
  }

  /** GET /checkout/3ds/<token>: the 3-D Secure step of the payment waiting for it. */
  async showThreeDSecure(ctx: RequestContext, token: string): Promise<CheckoutOutcome> {
    const session = await this.byToken(ctx, token);
    return inTransaction(this.contextFor(ctx, session), async (tx) => {
      const locked = await this.lock(tx, session.id);
      const routed = await this.route(tx, locked, { threeDSPage: true });
      if (routed) return routed;
      const attempt = await this.attemptOf(tx, locked);
      if (attempt?.status === PaymentStatus.REQUIRES_ACTION) return { kind: 'three_ds', view: await this.viewOf(tx, locked), paymentId: attempt.id };
      return { kind: 'redirect', url: this.urlOf(locked) };
    });
  }

  /** POST /checkout/3ds/<token>: the sandbox challenge is passed; finishes the payment and the session. */
  async completeThreeDSecure(ctx: RequestContext, token: string): Promise<CheckoutOutcome> {
    const found = await this.byToken(ctx, token);
    const system = this.contextFor(ctx, found);
    const attempt = await this.attemptOf(system, found);
    if (found.status !== CheckoutSessionStatus.OPEN || attempt?.status !== PaymentStatus.REQUIRES_ACTION) return this.showPage(ctx, token);
    try {
      await this.payments.completeThreeDSecure(system, attempt.id);
    } catch (error) {
      // The sandbox's own completion job (or another tab) finished it first: its result stands.
      if (!(error instanceof DomainError && error.code === ErrorCode.CONFLICT)) throw error;
    }
    return inTransaction(system, async (tx) => {
      const session = await this.lock(tx, found.id);
      const payment = await this.payments.get(tx, attempt.id);
      return this.afterAttempt(tx, session, payment, {});
    });
  }

  /** GET /checkout/<token>/complete: Tessera's receipt page, for sessions without a successUrl. */
  async showReceipt(ctx: RequestContext, token: string): Promise<CheckoutOutcome> {
    const session = await this.byToken(ctx, token);
    const system = this.contextFor(ctx, session);
    if (session.status !== CheckoutSessionStatus.COMPLETED) return { kind: 'redirect', url: this.urlOf(session) };
    return { kind: 'receipt', view: await this.viewOf(system, session) };
  }

  // ---------------------------------------------------------------- jobs

  /** Expiry job: an OPEN session past expiresAt becomes EXPIRED, unless a payment of it is still under way. */
  async expireDue(system: RequestContext, sessionId: string): Promise<void> {
    const row = await system.repo(CheckoutSession).findOne({ where: { id: sessionId } });
    if (!row || row.status !== CheckoutSessionStatus.OPEN) return;
    await inTransaction(this.contextFor(system, row), async (tx) => {
      const session = await this.lock(tx, sessionId);
      if (session.status !== CheckoutSessionStatus.OPEN || session.expiresAt.getTime() > Date.now()) return;
      const attempt = await this.attemptOf(tx, session);
      if (attempt?.capturedAt) {
        await this.complete(tx, session, attempt);
        return;
      }
      if (this.claimed(session) || attempt?.status === PaymentStatus.REQUIRES_ACTION) {
        await enqueueJob(tx, EXPIRE_CHECKOUT_SESSION_TASK, { sessionId }, { runAt: new Date(Date.now() + CLAIM_MS), jobKey: `checkout-expire:${sessionId}` });
        return;
      }
      session.status = CheckoutSessionStatus.EXPIRED;
      await tx.repo(CheckoutSession).save(session);
    });
  }

  /** Completes a session whose 3-D Secure payment finished without the payer coming back to the page. */
  async reconcile(system: RequestContext, sessionId: string): Promise<void> {
    const row = await system.repo(CheckoutSession).findOne({ where: { id: sessionId } });
    if (!row || row.status !== CheckoutSessionStatus.OPEN) return;
    await inTransaction(this.contextFor(system, row), async (tx) => {
      const session = await this.lock(tx, sessionId);
      if (await this.route(tx, session)) return;
      const attempt = await this.attemptOf(tx, session);
      if (attempt?.status === PaymentStatus.REQUIRES_ACTION && session.expiresAt.getTime() > Date.now()) {
        await enqueueJob(tx, RECONCILE_CHECKOUT_SESSION_TASK, { sessionId }, { runAt: new Date(Date.now() + RECONCILE_RETRY_MS), jobKey: `checkout-reconcile:${sessionId}` });
      }
    });
  }

  // ---------------------------------------------------------------- internals

  /**
   * Where a locked session must go before any form is shown: paid → successUrl (completing it first
   * if its last attempt was captured meanwhile), waiting for 3-D Secure → the 3DS page, past its
   * time → the expired page. Null: show the form.
   */
  private async route(tx: RequestContext, session: CheckoutSession, options: { threeDSPage?: boolean } = {}): Promise<CheckoutOutcome | null> {
    if (session.status === CheckoutSessionStatus.COMPLETED) return { kind: 'redirect', url: this.redirectUrlOf(session) };
    const attempt = await this.attemptOf(tx, session);
    if (attempt?.capturedAt && session.status === CheckoutSessionStatus.OPEN) {
      await this.complete(tx, session, attempt);
      return { kind: 'redirect', url: this.redirectUrlOf(session) };
    }
    if (session.status === CheckoutSessionStatus.EXPIRED) return { kind: 'expired', view: await this.viewOf(tx, session) };
    if (session.status === CheckoutSessionStatus.LOCKED) return { kind: 'locked', view: await this.viewOf(tx, session), message: null };
    if (attempt?.status === PaymentStatus.REQUIRES_ACTION) {
      return options.threeDSPage ? null : { kind: 'redirect', url: `${this.settings.publicBaseUrl}/checkout/3ds/${session.token}` };
    }
    if (session.expiresAt.getTime() <= Date.now() && !this.claimed(session)) return { kind: 'expired', view: await this.viewOf(tx, session) };
    return null;
  }

  private async afterAttempt(tx: RequestContext, session: CheckoutSession, payment: Payment, values: CheckoutFormValues): Promise<CheckoutOutcome> {
    if (session.status === CheckoutSessionStatus.COMPLETED) return { kind: 'redirect', url: this.redirectUrlOf(session) };
    if (payment.capturedAt) {
      await this.complete(tx, session, payment);
      return { kind: 'redirect', url: this.redirectUrlOf(session) };
    }
    if (payment.status === PaymentStatus.REQUIRES_ACTION) {
      await enqueueJob(tx, RECONCILE_CHECKOUT_SESSION_TASK, { sessionId: session.id }, {
        runAt: new Date(Date.now() + this.settings.sandbox3dsAutoCompleteMs + 2000), jobKey: `checkout-reconcile:${session.id}`,
      });
      return { kind: 'redirect', url: `${this.settings.publicBaseUrl}/checkout/3ds/${session.token}` };
    }
    if (payment.status === PaymentStatus.FAILED) {
      const message = payment.failureReason === 'authentication_failed'
        ? '3-D Secure authentication failed. Try again or use another card.'
        : `Your card was declined (${payment.failureReason ?? 'card_declined'}): ${payment.failureMessage ?? 'the card was declined'}.`;
      const reached = await this.limitReached(tx, session, payment.cardFingerprint);
      if (reached) return this.lockOut(tx, session, reached, message);
      return this.form(tx, session, { status: 402, errors: {}, message, values });
    }
    return { kind: 'processing', view: await this.viewOf(tx, session) };
  }

  /**
   * The first failed-attempt limit the session has reached, counting failed payments (declined,
   * blocked, failed 3-D Secure): of the session, ever; of all the sessions of its payment link or
   * invoice, and of the card at the business, within the window. Null: attempts may go on.
   */
  private async limitReached(tx: RequestContext, session: CheckoutSession, fingerprint: string | null): Promise<LimitReached | null> {
    const limits = this.settings.attemptLimits;
    const [counts]: Array<{ session: number; source: number; card: number }> = await tx.em.query(
      `SELECT
         (SELECT count(*) FROM payments p WHERE p.source_id = $1 AND p.source = $2 AND p.status = $3)::int AS session,
         CASE WHEN $4::uuid IS NULL THEN 0 ELSE (
           SELECT count(*) FROM checkout_sessions s JOIN payments p ON p.source_id = s.id AND p.source = $2
            WHERE s.source_id = $4 AND s.business_id = $5 AND p.status = $3 AND p.created_at > now() - make_interval(secs => $6)
         ) END::int AS source,
         CASE WHEN $7::text IS NULL THEN 0 ELSE (
           SELECT count(*) FROM payments p
            WHERE p.livemode = $8 AND p.card_fingerprint = $7 AND p.business_id = $5 AND p.status = $3 AND p.created_at > now() - make_interval(secs => $6)
         ) END::int AS card`,
      [session.id, PaymentSource.CHECKOUT_SESSION, PaymentStatus.FAILED, session.sourceId, session.businessId, limits.windowSeconds, fingerprint, session.livemode],
    );
    if (counts.session >= limits.perSession) return { reason: CheckoutLockReason.SESSION, failedAttempts: counts.session, limit: limits.perSession };
    if (counts.source >= limits.perSource) return { reason: CheckoutLockReason.SOURCE, failedAttempts: counts.source, limit: limits.perSource };
    if (counts.card >= limits.perCard) return { reason: CheckoutLockReason.CARD, failedAttempts: counts.card, limit: limits.perCard };
    return null;
  }

  /** Locks the session for good (it refuses every further attempt) and records `checkout.session.locked`. */
  private async lockOut(tx: RequestContext, session: CheckoutSession, reached: LimitReached, message: string | null): Promise<CheckoutOutcome> {
    session.status = CheckoutSessionStatus.LOCKED;
    session.lockedAt = new Date();
    session.lockReason = reached.reason;
    session.claimedUntil = null;
    await tx.repo(CheckoutSession).save(session);
    await this.events.record(tx, 'checkout.session.locked', {
      sessionId: session.id, source: session.source, sourceId: session.sourceId, status: session.status,
      reason: reached.reason, failedAttempts: reached.failedAttempts, limit: reached.limit,
      windowSeconds: reached.reason === CheckoutLockReason.SESSION ? null : this.settings.attemptLimits.windowSeconds,
    });
    return { kind: 'locked', view: await this.viewOf(tx, session), message };
  }

  private async complete(tx: RequestContext, session: CheckoutSession, payment: Payment): Promise<void> {
    session.status = CheckoutSessionStatus.COMPLETED;
    session.paymentId = payment.id;
    session.attemptPaymentId = payment.id;
    session.completedAt = new Date();
    session.claimedUntil = null;
    await tx.repo(CheckoutSession).save(session);
    await this.events.record(tx, 'payment_link.session.completed', {
      sessionId: session.id, source: session.source, sourceId: session.sourceId, status: session.status,
      amount: toMajor(session.amount, session.currency), currency: session.currency.toLowerCase(), paymentId: payment.id,
    });
    await this.completedHandlers.get(session.source)?.(tx, session, payment);
  }

  private redirectUrlOf(session: CheckoutSession): string {
    if (!session.successUrl) return this.successUrlOf(session);
    const url = new URL(session.successUrl);
    url.searchParams.set('session_id', session.id);
    return url.toString();
  }

  private async form(
    tx: RequestContext, session: CheckoutSession,
    state: { status: number; errors: FieldErrors; message: string | null; values: CheckoutFormValues } = { status: 200, errors: {}, message: null, values: {} },
  ): Promise<CheckoutOutcome> {
    return { kind: 'form', view: await this.viewOf(tx, session), ...state };
  }

  private async viewOf(ctx: RequestContext, session: CheckoutSession): Promise<CheckoutView> {
    const business = await ctx.repo(Business).findOne({ select: { id: true, name: true }, where: { id: session.businessId } });
    return { session, merchantName: business?.name ?? 'Merchant', askEmail: !session.customerEmail, offerRecurring: session.recurringInterval !== null };
  }

  private async attemptOf(ctx: RequestContext, session: CheckoutSession): Promise<Payment | null> {
    return session.attemptPaymentId ? this.payments.get(ctx, session.attemptPaymentId) : null;
  }

  private claimed(session: CheckoutSession): boolean {
    return session.claimedUntil !== null && session.claimedUntil.getTime() > Date.now();
  }

  private async release(system: RequestContext, sessionId: string): Promise<void> {
    await system.repo(CheckoutSession).update({ id: sessionId }, { claimedUntil: null });
  }

  /** The hosted page acts for the session's business and mode, as the system (the payer has no credential). */
  private contextFor(ctx: RequestContext, session: CheckoutSession): RequestContext {
    return ctx.asSystem('hosted-checkout', session.businessId, session.livemode ? Mode.LIVE : Mode.TEST);
  }

  private async byToken(ctx: RequestContext, token: string): Promise<CheckoutSession> {
    const session = TOKEN.test(token) ? await ctx.repo(CheckoutSession).findOne({ where: { token } }) : null;
    if (!session) throw notFound('Checkout session');
    return session;
  }

  private async lock(tx: RequestContext, sessionId: string): Promise<CheckoutSession> {
    return tx.repo(CheckoutSession).createQueryBuilder('session').setLock('pessimistic_write').where('session.id = :id', { id: sessionId }).getOneOrFail();
  }

  private async find(ctx: RequestContext, id: string): Promise<CheckoutSession> {
    const session = isUuid(id)
      ? await ctx.repo(CheckoutSession).findOne({ where: { id, businessId: ctx.requireBusiness(), livemode: ctx.livemode } })
      : null;
    if (!session) throw notFound('Checkout session');
    return session;
  }

  private filtered(ctx: RequestContext, filters: z.output<typeof listSchema>) {
    const query = newestFirst(ctx, CheckoutSession, 'session');
    if (filters.status) query.andWhere('session.status = :status', { status: filters.status });
    if (filters.source) query.andWhere('session.source = :source', { source: filters.source });
    return query;
  }
}
