import crypto from 'node:crypto';
import { ProviderRegistry } from '../../providers/registry';
import { redeemCardToken } from '../tokens';
import { EventService } from '../events/event.service';
import { Mode } from '../shared/modes';
import { AccountKind, LedgerService } from '../ledger';
import { RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, validationError } from '../shared/errors';
import { IdempotencyErrorCode } from '../idempotency';
import { enqueueJob } from '../shared/jobs';
import { MAX_AMOUNT_MINOR, normalizeCurrency } from '../shared/money';
import {
  Authorization,
  AuthorizationRequest,
  CardAcquirer,
  KeepCardFor,
  SaveCardRequest,
  SavedCard,
  VaultedCard,
} from '../../providers/card-acquirer/port';
import { CardDetails } from '../shared/card';
import { isUuid } from '../shared/ids';
import { ChargeDedupe, ChargeStore, DedupeClaim } from './charge.store';
import { AcquirerOutcomeCommand, AuthenticationReturnCommand, ChargeCommand } from './payment.commands';
import { Payment, PaymentFailureReason, PaymentSource, PaymentStatus } from './payment.entities';
import { awaitsAuthentication, paymentAllows, paymentTransition } from './payment.states';
import { PaymentChangedField, PaymentStore, vaultedOf } from './payment.store';
import { PaymentEvent, paymentCompleted, paymentCreated, paymentFailed } from './payments.events';
import { COMPLETE_3DS_TASK, PENDING_RECONCILE_AFTER_SECONDS, SETTLE_PAYMENT_TASK } from './payments.job-names';

/** The documented charge de-duplication window. */
export const CHARGE_DEDUPE_WINDOW_SECONDS = 60;

export interface ChargeSettings {
  /** Delay from capture to settlement (job), in seconds. */
  settlementDelaySeconds: number;
  /** Sandbox 3-D Secure challenges complete on their own after this long. */
  sandbox3dsAutoCompleteMs: number;
  /** PUBLIC_BASE_URL: the acquirer's 3-D Secure page sends the payer back to Tessera under it. */
  publicBaseUrl: string;
}

/** Tessera's return route from an acquirer's 3-D Secure page (src/hosted), by payment: the path finds the payment. */
export const authenticationReturnPathOf = (paymentId: string) => `/3ds/return/${paymentId}`;

/** A charge about to be made, as fraud screening sees it (before the acquirer is called). */
export interface ChargeAttempt {
  amount: bigint;
  currency: string;
  email: string;
  card: VaultedCard;
  ipAddress: string | null;
}

/** Returns why the attempt is blocked, or null. Runs in the transaction that records the payment. */
export type FraudScreen = (tx: RequestContext, attempt: ChargeAttempt) => Promise<string | null>;

/** The card of a charge once resolved: known now, or a single-use token the payment's own transaction redeems. */
type ResolvedCard = { vaulted: VaultedCard } | { token: string };

/** A charge once its rules are checked and its card and payer are known: what its transactions record. */
interface ResolvedCharge extends Omit<ChargeCommand, 'card'> {
  currency: string;
  email: string;
  customerId: string | null;
  paymentMethodId: string | null;
  card: ResolvedCard;
  /** Two server-to-server charges with the same key within the window are one; null: not de-duplicated. */
  dedupeKey: string | null;
  /** The customer the acquirer keeps the card for as it charges it (keepCard, at an acquirer with customers). */
  keepFor: KeepCardFor | null;
}

/** What the charge's first transaction recorded, and whether the acquirer is asked next. */
interface RecordedPayment {
  payment: Payment;
  proceed: boolean;
  card: VaultedCard | null;
  resumed: boolean;
}

/** Which acquirer answer is being recorded: to the authorization of a PENDING payment, or to its 3-D Secure completion. */
type AnswerStage = 'authorize' | 'authenticate';

/**
 * An acquirer's failure as a decline, except an acquirer that did not answer (SERVICE_UNAVAILABLE:
 * a timeout, its outage): that is passed on (503, nothing captured) and the payment stays PENDING
 * for the recovery sweep, which asks again on the same payment id.
 */
const unreachable = (error: unknown): Authorization => {
  if (isUnavailable(error)) throw error;
  return {
    outcome: 'declined',
    reason: 'card_declined',
    message: `The acquirer could not process the card: ${error instanceof Error ? error.message : String(error)}`,
  };
};

const isUnavailable = (error: unknown) => error instanceof DomainError && error.code === ErrorCode.SERVICE_UNAVAILABLE;

/** What the recovery sweep records for a payment the acquirer never received. */
const NEVER_RECEIVED = {
  outcome: 'declined',
  reason: PaymentFailureReason.PROCESSING_ERROR,
  message: 'The card acquirer never received this payment (its answer was lost before it arrived); nothing was charged',
} as const;

/** An acquirer's answer as recorded: its authorization, or the sweep's finding that it never received the payment. */
type AcquirerAnswer = Authorization | typeof NEVER_RECEIVED;

/**
 * A saved card a charge names (`paymentMethodId`): a card of a customer of the context's business
 * and mode, found by the customers area (payments reads none of its tables); otherwise a
 * VALIDATION_ERROR on `paymentMethodId`.
 */
export type SavedCardOf = (
  ctx: RequestContext,
  paymentMethodId: string,
) => Promise<{ card: VaultedCard; paymentMethodId: string; customerId: string; email: string }>;

/**
 * Whom a charge that keeps its card (`keepCard`) keeps it for, contributed by the area that keeps
 * customers: `customerFor` the payer's customer (made when the business has none with the email),
 * `recordAcquirerCustomer` the acquirer's customer that now keeps the card, on that customer.
 */
export interface CardKeeper {
  customerFor(ctx: RequestContext, email: string): Promise<KeepCardFor>;
  recordAcquirerCustomer(tx: RequestContext, customerId: string, customerRef: string): Promise<void>;
}

/**
 * Card charges: creating the payment, fraud screening, authorization and capture, 3-D Secure, and
 * the recovery sweep of payments whose acquirer answer was lost. Capture books the acquirer's
 * receivable against the merchant's pending balance; settlement (SettlementService) moves it on.
 */
export class ChargeService {
  constructor(
    private readonly settings: ChargeSettings,
    private readonly providers: Pick<ProviderRegistry, 'providerFor' | 'inMode'>,
    private readonly ledger: LedgerService,
    private readonly events: EventService,
    private readonly store: PaymentStore,
    private readonly chargeStore: ChargeStore,
    private readonly screen: FraudScreen,
    private readonly savedCard: SavedCardOf,
    private readonly keeper: CardKeeper,
  ) {}

  /**
   * The one charge, for every face and product. Without `origin` it is the documented
   * server-to-server charge: refused (400) unless the business enabled it for the mode, and the
   * same parameters within 60 s return the same payment. The payment records, and fraud screening
   * judges, the context's client address: the payer's on the hosted page, the caller's on the API
   * (REST and GraphQL alike), none in a job. Under an Idempotency-Key the payment is recorded on
   * the key in the transaction that creates it, before the acquirer sees the card; a retry of the
   * key after a crash gets that payment as it is now, never a second charge
   * (docs/decisions.md: "A retried key never repeats an effect that may have happened").
   */
  async charge(ctx: RequestContext, command: ChargeCommand): Promise<Payment> {
    if (!command.origin) ctx.requireRole(...WRITE_ROLES);
    const currency = normalizeCurrency(command.currency);
    const amount = command.amount;
    if (amount <= 0n) throw validationError({ amount: ['must be greater than zero'] });
    if (amount > MAX_AMOUNT_MINOR) throw validationError({ amount: ['is too large'] });
    if (
      !command.origin &&
      !(ctx.settingsAsAuthenticated ?? (await this.store.settingsOf(ctx))).serverToServerCharging
    ) {
      throw new DomainError(
        ErrorCode.BAD_REQUEST,
        `Server-to-server charging is not enabled for this business in ${ctx.livemode ? 'live' : 'test'} mode; ask an operator to enable it, or use a hosted checkout session`,
      );
    }
    let email = command.email;
    let customerId: string | null = null;
    let paymentMethodId: string | null = null;
    let instrument: unknown[] = [];
    let card: ResolvedCard;
    const source = command.card;
    switch (source.kind) {
      case 'card':
        card = { vaulted: await this.vaultCard(ctx, source.details) };
        break;
      case 'token':
        card = { token: source.token };
        instrument = ['token', source.token];
        break;
      case 'saved': {
        const saved = await this.savedCard(ctx, source.paymentMethodId);
        card = { vaulted: saved.card };
        paymentMethodId = saved.paymentMethodId;
        instrument = ['payment_method', saved.paymentMethodId];
        email ??= saved.email;
        customerId = saved.customerId;
        break;
      }
      case 'vaulted':
        card = { vaulted: source.vaulted };
        paymentMethodId = source.paymentMethodId ?? null;
        customerId = source.customerId ?? null;
        break;
    }
    if (email === undefined) throw validationError({ email: ["is required: the payer's email address"] });
    // The card is to be charged again (a recurring gift): an acquirer that keeps cards with its own
    // customers (Stripe) keeps it for the payer's customer as it charges it; the sandbox needs nothing.
    let keepFor: KeepCardFor | null = null;
    if (command.keepCard && !paymentMethodId && this.acquirerFor(ctx).keepsCardsWithCustomers) {
      keepFor = await this.keeper.customerFor(ctx, email);
      customerId = keepFor.customerId;
    }
    const dedupeKey = command.origin
      ? null
      : dedupeKeyOf([amount.toString(), currency, ...instrument, email, command.metadata ?? null], card);
    return this.create(ctx, { ...command, currency, email, customerId, paymentMethodId, card, dedupeKey, keepFor });
  }

  /** Hands the card to the mode's acquirer; what comes back is safe to keep (never the number). */
  async vaultCard(ctx: RequestContext, card: CardDetails): Promise<VaultedCard> {
    return this.acquirerFor(ctx).vault(card);
  }

  /**
   * Keeps a vaulted card with the mode's acquirer for later charges of a customer (Stripe: the
   * customer's Stripe Customer, with the card attached); outside any transaction, as every acquirer call.
   */
  async saveCardForCustomer(ctx: RequestContext, request: SaveCardRequest): Promise<SavedCard> {
    return this.acquirerFor(ctx).saveForCustomer(request);
  }

  /**
   * Refuses (422) what would take a card payment in a mode with no card acquirer (live, in this
   * build): a charge, and anything that offers a payer the card form (checkout sessions, payment
   * links), so the merchant hears it when asking, not the payer on the page.
   */
  requireCardPayments(ctx: RequestContext): void {
    this.acquirerFor(ctx);
  }

  /**
   * Records the PENDING payment (or finds the one this charge repeats), asks the acquirer outside
   * any transaction, then records its answer: on approval, in one transaction, the captured payment,
   * its ledger posting and its event.
   */
  private async create(ctx: RequestContext, charge: ResolvedCharge): Promise<Payment> {
    const acquirer = this.acquirerFor(ctx);
    const dedupe: ChargeDedupe = {
      key: charge.dedupeKey,
      windowSeconds: CHARGE_DEDUPE_WINDOW_SECONDS,
      // Redeeming the token of a repeated charge would refuse it as used: the claim is settled first.
      claimFirst: 'token' in charge.card,
    };
    const { payment, proceed, card, resumed } = await this.chargeStore.transaction(ctx, dedupe, (tx, claim) =>
      this.recordPending(tx, claim, charge),
    );
    if (resumed && payment.status === PaymentStatus.PENDING) {
      // Its first run died (or is still waiting) between recording the payment and recording the
      // acquirer's answer; the recovery sweep asks the acquirer again, idempotently on the payment id.
      throw new DomainError(
        IdempotencyErrorCode.IDEMPOTENCY_REQUEST_IN_PROGRESS,
        "The charge made with this Idempotency-Key is waiting for the acquirer's answer; retry later to get the payment",
      );
    }
    if (!proceed || !card) return payment;
    const request = { ...this.requestOf(payment, card), ...(charge.keepFor ? { keepFor: charge.keepFor } : {}) };
    const authorization = await acquirer.authorize(request).catch(unreachable);
    return this.recordAnswer(ctx, payment.id, authorization, 'authorize').catch(async (error: unknown) => {
      // The recovery sweep recorded the same answer first (this call outlived its two minutes).
      if (!(error instanceof DomainError && error.code === ErrorCode.CONFLICT)) throw error;
      return ctx.repo(Payment).findOneOrFail({ where: { id: payment.id } });
    });
  }

  /**
   * The charge's first transaction, before the acquirer sees the card: the payment an earlier run
   * of the Idempotency-Key made, or the one this charge repeats within the window, or a new PENDING
   * payment, recorded on the key with its event and screened for fraud.
   */
  private async recordPending(
    tx: RequestContext,
    claim: DedupeClaim,
    charge: ResolvedCharge,
  ): Promise<RecordedPayment> {
    const given = 'vaulted' in charge.card ? charge.card.vaulted : null;
    const earlier = await this.chargeStore.madeEarlier(tx);
    if (earlier) return { payment: earlier, proceed: false, card: given, resumed: true };
    const repeated = await this.chargeStore.repeated(tx, claim);
    if (repeated) {
      await tx.idempotency?.recordResource(tx, 'payment', repeated.id);
      return { payment: repeated, proceed: false, card: given, resumed: false };
    }
    const card = 'vaulted' in charge.card ? charge.card.vaulted : await redeemCardToken(tx, charge.card.token);
    const payment = await this.chargeStore.insert(
      tx,
      claim,
      pendingPaymentOf(tx, charge, card),
      charge.customerId ? null : charge.email,
    );
    await tx.idempotency?.recordResource(tx, 'payment', payment.id);
    this.events.recordBehind(tx, PaymentEvent.CREATED, paymentCreated(payment));
    const blocked = await this.screen(tx, {
      amount: charge.amount,
      currency: charge.currency,
      email: charge.email,
      card,
      ipAddress: tx.clientIp,
    });
    if (blocked) {
      paymentTransition(payment.status, 'block');
      // Created and failed in one transaction: subscribers hear of it once, as created.
      await this.fail(tx, payment, PaymentFailureReason.BLOCKED, blocked, null);
      return { payment, proceed: false, card, resumed: false };
    }
    this.store.announceCreated(tx, payment);
    return { payment, proceed: true, card, resumed: false };
  }

  /**
   * Recovery sweep (a job every minute): a payment left PENDING by a process that died, or by an
   * acquirer that did not answer, between recording it and recording the acquirer's answer. The
   * acquirer is asked what it made of the payment (`find`), never sent it again: sending it again
   * would make the charge if the first request never arrived, long after its caller heard 503.
   * Found: its answer is recorded. Never received: the payment FAILS, nothing was charged. Cannot
   * tell yet (unreachable, or its search lagging): left PENDING for the next sweep. Returns how many
   * payments it settled the fate of.
   */
  async reconcilePending(system: RequestContext, olderThanSeconds = PENDING_RECONCILE_AFTER_SECONDS): Promise<number> {
    const stale: Array<{ id: string; business_id: string; livemode: boolean }> = await system.em.query(
      `SELECT id, business_id, livemode FROM payments WHERE status = 'PENDING' AND created_at < now() - make_interval(secs => $1)
       ORDER BY created_at LIMIT 100`,
      [olderThanSeconds],
    );
    let reconciled = 0;
    for (const row of stale) {
      const ctx = system.forBusiness(row.business_id, row.livemode ? Mode.LIVE : Mode.TEST);
      const acquirer = this.providers.inMode('card-acquirer', row.livemode ? 'live' : 'test');
      const payment = await ctx.repo(Payment).findOneOrFail({ where: { id: row.id } });
      let answer: AcquirerAnswer;
      try {
        answer = acquirer
          ? ((await acquirer.find({ ...this.requestOf(payment), createdAt: payment.createdAt })) ?? NEVER_RECEIVED)
          : { outcome: 'declined', reason: 'card_declined', message: 'No card acquirer is configured for this mode' };
      } catch {
        // The acquirer cannot tell now (unreachable, its search lagging, or an answer it could not
        // give): failing the payment could hide a charge, so it stays PENDING for the next sweep.
        continue;
      }
      await this.recordAnswer(ctx, payment.id, answer, 'authorize')
        .then(() => {
          reconciled += 1;
        })
        .catch((error: unknown) => {
          if (!(error instanceof DomainError && error.code === ErrorCode.CONFLICT)) throw error;
        });
    }
    return reconciled;
  }

  /** The 3-D Secure completion: finishes a payment waiting for authentication. */
  async completeThreeDSecure(ctx: RequestContext, paymentId: string): Promise<Payment> {
    ctx.requireRole(...WRITE_ROLES);
    const payment = await this.store.find(ctx, paymentId);
    paymentTransition(payment.status, 'complete_authentication');
    const authorization = await this.acquirerFor(ctx).completeAuthentication(this.requestOf(payment));
    return this.recordAnswer(ctx, payment.id, authorization, 'authenticate');
  }

  /**
   * The payer back from the acquirer's 3-D Secure page (Tessera's return route, no credential): the
   * path's payment, if the acquirer sent its payer away (no other is found here), completed as the
   * 3-D Secure completion does once the acquirer confirms the return is that payment's. A payment
   * its acquirer's webhook (or an earlier return) finished is shown as it is.
   */
  async returnFromAuthentication(ctx: RequestContext, command: AuthenticationReturnCommand): Promise<Payment> {
    const found = isUuid(command.paymentId)
      ? await ctx.repo(Payment).findOne({ where: { id: command.paymentId } })
      : null;
    if (!found?.authenticationUrl) throw new DomainError(ErrorCode.NOT_FOUND, 'Payment not found');
    const system = ctx.asSystem('3ds-return', found.businessId, found.livemode ? Mode.LIVE : Mode.TEST);
    if (!awaitsAuthentication(found)) return found;
    const authorization = await this.acquirerFor(system).completeAuthentication(this.requestOf(found), {
      reference: command.reference,
    });
    return this.recordAnswer(system, found.id, authorization, 'authenticate').catch(async (error: unknown) => {
      // Its acquirer's webhook (or another tab's return) recorded the outcome first: it stands.
      if (!(error instanceof DomainError && error.code === ErrorCode.CONFLICT)) throw error;
      return system.repo(Payment).findOneOrFail({ where: { id: found.id } });
    });
  }

  /**
   * The acquirer's later word on a payment (its webhook, in the inbox's transaction): a payment
   * still waiting for it (PENDING, its answer lost; REQUIRES_ACTION, its payer never back) is
   * completed or failed as the answer or the 3-D Secure completion would have; any other is left
   * alone, so the event applied twice, or after the payer's return, changes nothing. A payment of
   * a mode another acquirer serves (the sandbox's) is not the acquirer's to settle. Returns the
   * payment when this moved it.
   */
  async applyAcquirerOutcome(tx: RequestContext, command: AcquirerOutcomeCommand): Promise<Payment | null> {
    const found = isUuid(command.paymentId)
      ? await tx.repo(Payment).findOne({ where: { id: command.paymentId } })
      : null;
    if (!found || command.authorization.outcome === 'authentication_required') return null;
    if (this.providers.inMode('card-acquirer', found.livemode ? 'live' : 'test')?.name !== command.acquirer)
      return null;
    const stage: AnswerStage | null =
      found.status === PaymentStatus.PENDING
        ? 'authorize'
        : found.status === PaymentStatus.REQUIRES_ACTION
          ? 'authenticate'
          : null;
    if (!stage) return null;
    const ctx = tx.forBusiness(found.businessId, found.livemode ? Mode.LIVE : Mode.TEST);
    return this.recordAnswer(ctx, found.id, command.authorization, stage).catch((error: unknown) => {
      // Moved meanwhile by the payer's return or the charge's own answer: that outcome stands.
      if (!(error instanceof DomainError && error.code === ErrorCode.CONFLICT)) throw error;
      return null;
    });
  }

  /** The sandbox's automatic 3-D Secure completion (job); a payment completed meanwhile is left alone. */
  async autoCompleteThreeDSecure(system: RequestContext, paymentId: string): Promise<void> {
    const payment = await system.repo(Payment).findOne({ where: { id: paymentId } });
    // A payment sent to the acquirer's own page is finished by the payer's return or its webhook.
    if (
      !payment ||
      !paymentAllows(payment.status, 'complete_authentication') ||
      payment.livemode ||
      payment.authenticationUrl
    )
      return;
    const ctx = system.forBusiness(payment.businessId, payment.livemode ? Mode.LIVE : Mode.TEST);
    const authorization = await this.providers
      .inMode('card-acquirer', 'test')
      .completeAuthentication(this.requestOf(payment));
    await this.recordAnswer(ctx, payment.id, authorization, 'authenticate').catch((error) => {
      if (!(error instanceof DomainError && error.code === ErrorCode.CONFLICT)) throw error;
    });
  }

  /** Forgets charge de-duplication claims past the window (an hourly housekeeping job); returns how many. */
  async purgeDedupeClaims(system: RequestContext): Promise<number> {
    return this.chargeStore.purgeDedupeClaims(system, CHARGE_DEDUPE_WINDOW_SECONDS);
  }

  /** Records the acquirer's answer once; an answer to a payment that already moved on is a CONFLICT. */
  private async recordAnswer(
    ctx: RequestContext,
    paymentId: string,
    authorization: AcquirerAnswer,
    stage: AnswerStage,
  ): Promise<Payment> {
    const reference = 'reference' in authorization ? authorization.reference : undefined;
    // The acquirer kept the card for the payment's customer: every later request about the payment,
    // and the card saved from it, use the card as kept.
    const kept = 'kept' in authorization ? authorization.kept : undefined;
    return inTransaction(ctx, async (tx) => {
      if (authorization.outcome === 'approved') {
        // The common answer moves the payment in one UPDATE ... RETURNING (no locking read first).
        const captured = await this.store.advance(tx, paymentId, `${stage}_approved`, {
          capturedAt: new Date(),
          ...(reference ? { acquirerReference: reference } : {}),
          ...(kept ? { cardProviderRef: kept.providerRef } : {}),
          threeDSecure: () => `CASE WHEN three_dsecure = 'pending' THEN 'succeeded' ELSE three_dsecure END`,
        });
        if (kept && captured.customerId)
          await this.keeper.recordAcquirerCustomer(tx, captured.customerId, kept.customerRef);
        // Only a payment that waited for 3-D Secure (authenticate) had its threeDSecure set here.
        return stage === 'authorize'
          ? this.capture(tx, captured, PaymentStatus.PENDING, ['status', 'capturedAt'])
          : this.capture(tx, captured, PaymentStatus.REQUIRES_ACTION, ['status', 'capturedAt', 'threeDSecure']);
      }
      const payment = await this.store.lock(tx, paymentId);
      if (reference) await this.store.persist(tx, payment, { acquirerReference: reference });
      if (kept) {
        await this.store.persist(tx, payment, { cardProviderRef: kept.providerRef });
        if (payment.customerId) await this.keeper.recordAcquirerCustomer(tx, payment.customerId, kept.customerRef);
      }
      if (authorization.outcome === 'declined') {
        paymentTransition(payment.status, `${stage}_declined`);
        if (payment.threeDSecure === 'pending')
          payment.threeDSecure = authorization.reason === 'authentication_failed' ? 'failed' : 'succeeded';
        return this.fail(
          tx,
          payment,
          authorization.reason as PaymentFailureReason,
          authorization.message,
          payment.status,
        );
      }
      const previousStatus = payment.status;
      const status = paymentTransition(payment.status, `${stage}_challenged`);
      const authenticationUrl = authorization.redirectUrl ?? null;
      await this.store.persist(tx, payment, { status, threeDSecure: 'pending', authenticationUrl });
      // Only the sandbox's own challenge completes by itself; an acquirer's page waits for the payer.
      if (!tx.livemode && !authenticationUrl) {
        await enqueueJob(
          tx,
          COMPLETE_3DS_TASK,
          { paymentId: payment.id },
          {
            runAt: new Date(Date.now() + this.settings.sandbox3dsAutoCompleteMs),
            jobKey: `3ds:${payment.id}`,
          },
        );
      }
      this.store.announce(
        tx,
        payment,
        previousStatus,
        previousStatus === status ? ['threeDSecure'] : ['status', 'threeDSecure'],
      );
      return payment;
    });
  }

  /** Books a payment just moved to COMPLETED: the ledger posting, the event and the settlement job (written behind). */
  private async capture(
    tx: RequestContext,
    payment: Payment,
    previousStatus: PaymentStatus,
    changedFields: PaymentChangedField[],
  ): Promise<Payment> {
    const pending = await this.ledger.account(tx, {
      kind: AccountKind.MERCHANT_PENDING,
      currency: payment.currency,
      businessId: payment.businessId,
    });
    const clearing = await this.ledger.account(tx, { kind: AccountKind.PROVIDER_CLEARING, currency: payment.currency });
    // Neither account keeps a cached balance (no overdraft to check): the posting and the event go
    // out behind the capture's UPDATE and are answered before its COMMIT is.
    this.ledger.moveBehind(tx, {
      kind: 'card_capture',
      referenceType: 'payment',
      referenceId: payment.id,
      description: 'Card payment captured',
      lines: [
        { account: pending, amount: payment.amount },
        { account: clearing, amount: -payment.amount },
      ],
    });
    this.events.recordBehind(tx, PaymentEvent.COMPLETED, paymentCompleted(payment), [
      {
        task: SETTLE_PAYMENT_TASK,
        payload: { paymentId: payment.id },
        // No key: the capture that enqueues it happens once per payment, and settling is idempotent.
        options: { runAt: new Date(Date.now() + this.settings.settlementDelaySeconds * 1000), rowOnly: true },
      },
    ]);
    this.store.announce(tx, payment, previousStatus, changedFields);
    return payment;
  }

  /** Fails the payment; previousStatus null for one created in this transaction (told once, as created). */
  private async fail(
    tx: RequestContext,
    payment: Payment,
    reason: PaymentFailureReason,
    message: string,
    previousStatus: PaymentStatus | null,
  ): Promise<Payment> {
    await this.store.persist(tx, payment, {
      status: PaymentStatus.FAILED,
      failureReason: reason,
      failureMessage: message,
      threeDSecure: payment.threeDSecure,
    });
    await this.events.record(tx, PaymentEvent.FAILED, paymentFailed(payment, reason));
    if (previousStatus === null) this.store.announceCreated(tx, payment);
    else
      this.store.announce(
        tx,
        payment,
        previousStatus,
        payment.threeDSecure === null
          ? ['status', 'failureReason', 'failureMessage']
          : ['status', 'failureReason', 'failureMessage', 'threeDSecure'],
      );
    return payment;
  }

  /**
   * What the acquirer is asked about a payment, the same on every call (a repeat is the same
   * request at the acquirer): the return route on PUBLIC_BASE_URL included.
   */
  private requestOf(payment: Payment, card: VaultedCard = vaultedOf(payment)): AuthorizationRequest {
    return {
      paymentId: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      card,
      returnUrl: `${this.settings.publicBaseUrl.replace(/\/+$/, '')}${authenticationReturnPathOf(payment.id)}`,
      // A charge of a saved card (server-to-server, a recurring gift) is the merchant's: the payer is not there.
      ...(payment.paymentMethodId ? { offSession: true } : {}),
    };
  }

  /** The mode's acquirer; live mode without one is refused in one place (ProviderRegistry.providerFor). */
  private acquirerFor(ctx: RequestContext): CardAcquirer {
    return this.providers.providerFor(ctx, 'card-acquirer');
  }
}

/** The dedupe key of a server-to-server charge: its parameters and, when known now, the card's identity, hashed. */
function dedupeKeyOf(parameters: unknown[], card: ResolvedCard): string {
  const given = 'vaulted' in card ? card.vaulted : null;
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([...parameters, given ? [given.fingerprint, given.expiryMonth, given.expiryYear] : null]))
    .digest('base64url');
}

/** The new payment's row: PENDING, with the card as the acquirer vaulted it and the caller's address. */
function pendingPaymentOf(tx: RequestContext, charge: ResolvedCharge, card: VaultedCard): Partial<Payment> {
  return {
    businessId: tx.requireBusiness(),
    livemode: tx.livemode,
    amount: charge.amount,
    currency: charge.currency,
    status: PaymentStatus.PENDING,
    email: charge.email,
    customerId: charge.customerId,
    paymentMethodId: charge.paymentMethodId,
    cardBrand: card.brand,
    cardLast4: card.last4,
    cardExpiryMonth: card.expiryMonth,
    cardExpiryYear: card.expiryYear,
    cardFingerprint: card.fingerprint,
    cardCountry: card.country,
    cardProviderRef: card.providerRef,
    source: charge.origin?.source ?? PaymentSource.API,
    sourceId: charge.origin?.sourceId ?? null,
    dedupeKey: charge.dedupeKey,
    ipAddress: tx.clientIp,
    metadata: charge.metadata ?? null,
  };
}
