import { Business } from '../identity';
import {
  AuthenticationReturnCommand,
  awaitsAuthentication,
  Payment,
  PaymentFailureReason,
  PaymentService,
  PaymentSource,
  PaymentStatus,
} from '../payments';
import { RequestContext, inTransaction } from '../shared/context';
import { Mode } from '../shared/modes';
import { DomainError, ErrorCode, FieldErrors } from '../shared/errors';
import { enqueueJob } from '../shared/jobs';
import { CardTestingGuard } from './card-testing';
import { CheckoutSession, CheckoutSessionStatus } from './checkout-session.entity';
import { checkoutSessionAllows } from './checkout-session.states';
import {
  CLAIM_MS,
  RECONCILE_CHECKOUT_SESSION_TASK,
  isClaimed,
  lockSession,
  sessionByToken,
  systemContextFor,
} from './checkout-session.store';
import { PayCheckoutSessionCommand } from './checkout.commands';

/** The form's summary when fields are refused (each field then carries its own message). */
export const CORRECT_THE_FIELDS = 'Some details need correcting: see the highlighted fields below.';

/** What the payer reads when a payment failed, by its failure reason (the API's reason codes are for the merchant). */
const DECLINE_MESSAGES: Record<string, string> = {
  [PaymentFailureReason.CARD_DECLINED]: 'Your card was declined. Try another card, or ask your bank why.',
  [PaymentFailureReason.INSUFFICIENT_FUNDS]: 'Your card was declined: not enough funds. Try another card.',
  [PaymentFailureReason.AUTHENTICATION_FAILED]: '3-D Secure authentication failed. Try again or use another card.',
  [PaymentFailureReason.BLOCKED]: 'This card cannot be used for this payment. Try another card.',
  [PaymentFailureReason.PROCESSING_ERROR]:
    'The payment could not be processed. Nothing was charged; try again in a moment.',
};

/** How often a session waiting on a 3-D Secure payment is looked at again (when the payer does not come back). */
const RECONCILE_RETRY_MS = 30_000;

/** The hosted page as the payer sees it. */
export interface CheckoutView {
  session: CheckoutSession;
  merchantName: string;
  /** The session has no email: the page asks for it. */
  askEmail: boolean;
  /** The payer may opt in to a recurring gift at session.recurringInterval. */
  offerRecurring: boolean;
}

/**
 * Why the payment form is shown again: fields the payer corrects, a declined card, or a payment
 * that could not be made (nothing was charged); null when it is simply shown.
 */
export type CheckoutRefusal = 'invalid_fields' | 'declined' | 'not_made';

/** What the hosted page answers, decided by the domain and rendered by the face. */
export type CheckoutOutcome =
  | { kind: 'form'; view: CheckoutView; refusal: CheckoutRefusal | null; errors: FieldErrors; message: string | null }
  | { kind: 'redirect'; url: string }
  /** The 3-D Secure step: the acquirer's page to send the payer to, or (null) Tessera's sandbox challenge. */
  | { kind: 'three_ds'; view: CheckoutView; paymentId: string; authenticationUrl: string | null }
  | { kind: 'processing'; view: CheckoutView }
  | { kind: 'expired'; view: CheckoutView }
  | { kind: 'locked'; view: CheckoutView; message: string | null }
  | { kind: 'receipt'; view: CheckoutView; payment: Payment | null };

/** The payer back from the acquirer's 3-D Secure: a session's page, or (a payment of no session) the payment's outcome. */
export type AuthenticationReturnOutcome = CheckoutOutcome | { kind: 'payment'; payment: Payment };

/**
 * Paying a checkout session on the hosted page (the token is the capability). A submit claims the
 * session row (under its lock) before charging, so a concurrent submit waits instead of charging
 * again; completing it happens in one transaction under the same lock.
 */
/**
 * What the hosted pages ask of the sessions' own service: CheckoutService, which builds this one
 * (declared here so the two files do not import each other).
 */
export interface CheckoutSessions {
  now(ctx: RequestContext): Promise<Date>;
  pathOf(session: CheckoutSession): string;
  threeDSecurePathOf(session: CheckoutSession): string;
  redirectUrlOf(session: CheckoutSession): string;
  attemptOf(ctx: RequestContext, session: CheckoutSession): Promise<Payment | null>;
  complete(tx: RequestContext, session: CheckoutSession, payment: Payment): Promise<void>;
}

export class HostedCheckoutService {
  constructor(
    private readonly settings: { sandbox3dsAutoCompleteMs: number },
    private readonly payments: PaymentService,
    private readonly sessions: CheckoutSessions,
    private readonly cardTesting: CardTestingGuard,
  ) {}

  /** GET /checkout/<token>. */
  async showPage(ctx: RequestContext, token: string): Promise<CheckoutOutcome> {
    const session = await sessionByToken(ctx, token);
    return inTransaction(systemContextFor(ctx, session), async (tx) => {
      const locked = await lockSession(tx, session.id);
      return (await this.route(tx, locked)) ?? this.form(tx, locked);
    });
  }

  /** POST /checkout/<token>: the form's errors, or the card charged once and the session completed. */
  async pay(ctx: RequestContext, command: PayCheckoutSessionCommand): Promise<CheckoutOutcome> {
    const found = await sessionByToken(ctx, command.token);
    const system = systemContextFor(ctx, found);
    const { card } = command;
    const errors: FieldErrors = card.ok ? {} : { ...card.errors };
    let email = found.customerEmail;
    if (!email) {
      if (command.email.ok) email = command.email.value;
      else Object.assign(errors, command.email.errors);
    }

    // Vaulted before the session is claimed, so that the card's earlier failures can refuse it.
    const vaulted =
      card.ok && email && checkoutSessionAllows(found.status, 'complete')
        ? await this.payments.vaultCard(system, card.value)
        : null;

    const claim = await inTransaction(system, async (tx): Promise<CheckoutOutcome | null> => {
      const session = await lockSession(tx, found.id);
      const routed = await this.route(tx, session);
      if (routed) return routed;
      if (Object.keys(errors).length > 0 || !email || !vaulted) {
        return this.form(tx, session, { refusal: 'invalid_fields', errors, message: CORRECT_THE_FIELDS });
      }
      if (isClaimed(session)) return { kind: 'processing', view: await this.viewOf(tx, session) };
      const reached = await this.cardTesting.limitReached(tx, session, vaulted.fingerprint);
      if (reached) {
        await this.cardTesting.lockOut(tx, session, reached);
        return { kind: 'locked', view: await this.viewOf(tx, session), message: null };
      }
      // A payment of this session that was never linked to it (the process died after the charge):
      // adopt it instead of charging the payer again.
      const taken = await this.payments.takenFor(tx, PaymentSource.CHECKOUT_SESSION, session.id);
      if (taken && taken.id !== session.attemptPaymentId) {
        session.attemptPaymentId = taken.id;
        await tx.repo(CheckoutSession).save(session);
        if (taken.status === PaymentStatus.PENDING) return { kind: 'processing', view: await this.viewOf(tx, session) };
        return this.afterAttempt(tx, session, taken);
      }
      session.claimedUntil = new Date(Date.now() + CLAIM_MS);
      session.recurringOptIn = session.recurringInterval !== null && command.recurring;
      await tx.repo(CheckoutSession).save(session);
      return null;
    });
    if (claim) return claim;

    let payment: Payment | null = null;
    let refusal: string | null = null;
    try {
      payment = await this.payments.charge(system, {
        amount: found.amount,
        currency: found.currency,
        email: email!,
        card: { kind: 'vaulted', vaulted: vaulted! },
        origin: { source: PaymentSource.CHECKOUT_SESSION, sourceId: found.id },
        metadata: found.metadata,
        // The payer opted in to a recurring gift: its later charges use this card off-session.
        keepCard: found.recurringInterval !== null && command.recurring,
      });
    } catch (error) {
      if (!(error instanceof DomainError)) {
        await system.repo(CheckoutSession).update({ id: found.id }, { claimedUntil: null });
        throw error;
      }
      refusal = error.message;
    }
    return inTransaction(system, async (tx) => {
      const session = await lockSession(tx, found.id);
      session.claimedUntil = null;
      if (payment) session.attemptPaymentId = payment.id;
      await tx.repo(CheckoutSession).save(session);
      if (!payment)
        return this.form(tx, session, {
          refusal: 'not_made',
          errors: {},
          message: `This payment could not be made, and nothing was charged (${(refusal ?? '').replace(/\.$/, '')}). Try again later, or ask the merchant for another way to pay.`,
        });
      return this.afterAttempt(tx, session, payment);
    });
  }

  /** GET /checkout/3ds/<token>: the 3-D Secure step of the payment waiting for it. */
  async showThreeDSecure(ctx: RequestContext, token: string): Promise<CheckoutOutcome> {
    const session = await sessionByToken(ctx, token);
    return inTransaction(systemContextFor(ctx, session), async (tx) => {
      const locked = await lockSession(tx, session.id);
      const routed = await this.route(tx, locked, { threeDSPage: true });
      if (routed) return routed;
      const attempt = await this.sessions.attemptOf(tx, locked);
      if (attempt && awaitsAuthentication(attempt))
        return {
          kind: 'three_ds',
          view: await this.viewOf(tx, locked),
          paymentId: attempt.id,
          authenticationUrl: attempt.authenticationUrl,
        };
      return { kind: 'redirect', url: this.sessions.pathOf(locked) };
    });
  }

  /** POST /checkout/3ds/<token>: the sandbox challenge is passed; finishes the payment and the session. */
  async completeThreeDSecure(ctx: RequestContext, token: string): Promise<CheckoutOutcome> {
    const found = await sessionByToken(ctx, token);
    const system = systemContextFor(ctx, found);
    const attempt = await this.sessions.attemptOf(system, found);
    if (!checkoutSessionAllows(found.status, 'complete') || !attempt || !awaitsAuthentication(attempt))
      return this.showPage(ctx, token);
    // The acquirer's own challenge is passed on its page, and finished by the payer's return from it.
    if (attempt.authenticationUrl) return this.showThreeDSecure(ctx, token);
    try {
      await this.payments.completeThreeDSecure(system, attempt.id);
    } catch (error) {
      // The sandbox's own completion job (or another tab) finished it first: its result stands.
      if (!(error instanceof DomainError && error.code === ErrorCode.CONFLICT)) throw error;
    }
    return inTransaction(system, async (tx) => {
      const session = await lockSession(tx, found.id);
      const payment = await this.payments.get(tx, attempt.id);
      return this.afterAttempt(tx, session, payment);
    });
  }

  /**
   * GET /3ds/return/<paymentId>: the payer back from the acquirer's 3-D Secure page. The payment is
   * completed (payments checks that the return is its own), then the payer sees what the sandbox's
   * challenge leads to: the session's success URL, or its form with the decline; a payment of no
   * session (server-to-server) shows its outcome.
   */
  async returnFromAuthentication(
    ctx: RequestContext,
    command: AuthenticationReturnCommand,
  ): Promise<AuthenticationReturnOutcome> {
    const payment = await this.payments.returnFromAuthentication(ctx, command);
    if (payment.source !== PaymentSource.CHECKOUT_SESSION || !payment.sourceId) return { kind: 'payment', payment };
    const found = await ctx
      .asSystem('hosted-checkout', payment.businessId, payment.livemode ? Mode.LIVE : Mode.TEST)
      .repo(CheckoutSession)
      .findOneOrFail({ where: { id: payment.sourceId } });
    return inTransaction(systemContextFor(ctx, found), async (tx) => {
      const session = await lockSession(tx, found.id);
      // The payer paid again meanwhile (another tab): the session's page shows where it stands.
      if (session.attemptPaymentId !== payment.id) return (await this.route(tx, session)) ?? this.form(tx, session);
      return this.afterAttempt(tx, session, payment);
    });
  }

  /** GET /checkout/<token>/complete: Tessera's receipt page, for sessions without a successUrl. */
  async showReceipt(ctx: RequestContext, token: string): Promise<CheckoutOutcome> {
    const session = await sessionByToken(ctx, token);
    if (session.status !== CheckoutSessionStatus.COMPLETED)
      return { kind: 'redirect', url: this.sessions.pathOf(session) };
    const system = systemContextFor(ctx, session);
    const payment = session.paymentId ? await this.payments.get(system, session.paymentId) : null;
    return { kind: 'receipt', view: await this.viewOf(system, session), payment };
  }

  /** Completes a session whose 3-D Secure payment finished without the payer coming back to the page. */
  async reconcile(system: RequestContext, sessionId: string): Promise<void> {
    const row = await system.repo(CheckoutSession).findOne({ where: { id: sessionId } });
    if (!row || !checkoutSessionAllows(row.status, 'complete')) return;
    await inTransaction(systemContextFor(system, row), async (tx) => {
      const session = await lockSession(tx, sessionId);
      if (await this.route(tx, session)) return;
      const attempt = await this.sessions.attemptOf(tx, session);
      if (awaitsAuthentication(attempt) && session.expiresAt > (await this.sessions.now(tx))) {
        await enqueueJob(
          tx,
          RECONCILE_CHECKOUT_SESSION_TASK,
          { sessionId },
          { runAt: new Date(Date.now() + RECONCILE_RETRY_MS), jobKey: `checkout-reconcile:${sessionId}` },
        );
      }
    });
  }

  /**
   * Where a locked session must go before any form is shown: paid → successUrl (completing it first
   * if its last attempt was captured meanwhile), waiting for 3-D Secure → the 3DS page, past its
   * time → the expired page. Null: show the form.
   */
  private async route(
    tx: RequestContext,
    session: CheckoutSession,
    options: { threeDSPage?: boolean } = {},
  ): Promise<CheckoutOutcome | null> {
    if (session.status === CheckoutSessionStatus.COMPLETED)
      return { kind: 'redirect', url: this.sessions.redirectUrlOf(session) };
    const attempt = await this.sessions.attemptOf(tx, session);
    if (attempt?.capturedAt && checkoutSessionAllows(session.status, 'complete')) {
      await this.sessions.complete(tx, session, attempt);
      return { kind: 'redirect', url: this.sessions.redirectUrlOf(session) };
    }
    if (session.status === CheckoutSessionStatus.EXPIRED)
      return { kind: 'expired', view: await this.viewOf(tx, session) };
    if (session.status === CheckoutSessionStatus.LOCKED)
      return { kind: 'locked', view: await this.viewOf(tx, session), message: null };
    if (awaitsAuthentication(attempt)) {
      return options.threeDSPage ? null : { kind: 'redirect', url: this.sessions.threeDSecurePathOf(session) };
    }
    // expiresAt is on the business's clock (the test clock in the sandbox).
    if (session.expiresAt <= (await this.sessions.now(tx)) && !isClaimed(session))
      return { kind: 'expired', view: await this.viewOf(tx, session) };
    return null;
  }

  private async afterAttempt(tx: RequestContext, session: CheckoutSession, payment: Payment): Promise<CheckoutOutcome> {
    if (session.status === CheckoutSessionStatus.COMPLETED)
      return { kind: 'redirect', url: this.sessions.redirectUrlOf(session) };
    if (payment.capturedAt) {
      await this.sessions.complete(tx, session, payment);
      return { kind: 'redirect', url: this.sessions.redirectUrlOf(session) };
    }
    if (awaitsAuthentication(payment)) {
      await enqueueJob(
        tx,
        RECONCILE_CHECKOUT_SESSION_TASK,
        { sessionId: session.id },
        {
          runAt: new Date(Date.now() + this.settings.sandbox3dsAutoCompleteMs + 2000),
          jobKey: `checkout-reconcile:${session.id}`,
        },
      );
      return { kind: 'redirect', url: this.sessions.threeDSecurePathOf(session) };
    }
    if (payment.status === PaymentStatus.FAILED) {
      const message =
        DECLINE_MESSAGES[payment.failureReason ?? PaymentFailureReason.CARD_DECLINED] ??
        DECLINE_MESSAGES[PaymentFailureReason.CARD_DECLINED];
      const reached = checkoutSessionAllows(session.status, 'lock')
        ? await this.cardTesting.limitReached(tx, session, payment.cardFingerprint)
        : null;
      if (reached) {
        await this.cardTesting.lockOut(tx, session, reached);
        return { kind: 'locked', view: await this.viewOf(tx, session), message };
      }
      return this.form(tx, session, { refusal: 'declined', errors: {}, message });
    }
    return { kind: 'processing', view: await this.viewOf(tx, session) };
  }

  private async form(
    tx: RequestContext,
    session: CheckoutSession,
    state: { refusal: CheckoutRefusal | null; errors: FieldErrors; message: string | null } = {
      refusal: null,
      errors: {},
      message: null,
    },
  ): Promise<CheckoutOutcome> {
    return { kind: 'form', view: await this.viewOf(tx, session), ...state };
  }

  private async viewOf(ctx: RequestContext, session: CheckoutSession): Promise<CheckoutView> {
    const business = await ctx
      .repo(Business)
      .findOne({ select: { id: true, name: true }, where: { id: session.businessId } });
    return {
      session,
      merchantName: business?.name ?? 'Merchant',
      askEmail: !session.customerEmail,
      offerRecurring: session.recurringInterval !== null,
    };
  }
}
