import crypto from 'node:crypto';
import { In } from 'typeorm';
import { z } from 'zod';
import { Customer } from '../customers/customer.entities';
import { savedCardForCharge, vaultedCardOf } from '../customers/customer.service';
import { redeemCardToken } from '../tokens/card-token.service';
import { EventService } from '../events/event.service';
import { TesseraPubSub, Topic } from '../events/pubsub';
import { BusinessSettings, Mode } from '../identity/identity.entities';
import { WalletService } from '../wallets/wallet.service';
import { AccountKind } from '../ledger/ledger.entities';
import { LedgerService, Posting, PostingLine } from '../ledger/ledger.service';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, notFound, validationError } from '../shared/errors';
import { enqueueJob } from '../shared/jobs';
import { normalizeCurrency, positiveMinor, toMajor } from '../shared/money';
import { OffsetPage, Page, PageRequest, keysetPage, newestFirst, offsetPage } from '../shared/pagination';
import { amountSchema, currencySchema, dateTimeSchema, emailSchema, enumFilter, evenWhenFieldsFail, isUuid, metadataSchema, parseInput, required, pageParams } from '../../wire/validation';
import { Authorization, CardAcquirer, VaultedCard } from '../../providers/card-acquirer/port';
import { CardDetails, cardSchema } from './card';
import { UNDISPUTED, disputeTransition } from './dispute.states';
import { Dispute, DisputeStatus, Payment, PaymentFailureReason, PaymentSource, PaymentStatus, Refund } from './payment.entities';

export const SETTLE_PAYMENT_TASK = 'settle_payment';
export const COMPLETE_3DS_TASK = 'complete_sandbox_3ds';
export const RECONCILE_PENDING_TASK = 'reconcile_pending_payments';

/** A payment still PENDING this long after creation lost its acquirer answer (the process died mid-charge). */
export const PENDING_RECONCILE_AFTER_SECONDS = 120;

/** The documented charge de-duplication window. */
export const CHARGE_DEDUPE_WINDOW_SECONDS = 60;

export interface PaymentSettings {
  /** Delay from capture to settlement (job), in seconds. */
  settlementDelaySeconds: number;
  /** Sandbox 3-D Secure challenges complete on their own after this long. */
  sandbox3dsAutoCompleteMs: number;
}

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

/** Everything a card payment needs, whichever face or product starts it. */
export interface CardPaymentRequest {
  amount: bigint;
  currency: string;
  email: string;
  card:
    | { details: CardDetails }
    | { vaulted: VaultedCard; paymentMethodId?: string | null }
    /** A card the payment's own transaction obtains after the de-duplication check (a single-use token). */
    | { redeem: (tx: RequestContext) => Promise<VaultedCard> };
  customerId?: string | null;
  source?: PaymentSource;
  sourceId?: string | null;
  /**
   * The charge's parameters other than the card: the same parameters and the same card within the
   * window return the same payment. The card counts by its fingerprint and expiry (never its number
   * or CVV), a token or saved card by its id, which belongs in these parameters.
   */
  dedupe?: unknown[] | null;
  metadata?: Record<string, unknown> | null;
}

export interface PaymentFilters {
  status?: PaymentStatus;
  email?: string;
  customerId?: string;
  from?: Date;
  to?: Date;
}


/** Exactly one of `card`, `token` (a browser card token) or `paymentMethodId` (a customer's saved card). */
const chargeSchema = z.object({
  amount: amountSchema,
  currency: currencySchema,
  card: cardSchema.optional(),
  token: z.string({ error: 'must be a card token id (tok_…)' }).trim().optional(),
  paymentMethodId: z.string({ error: 'must be the id of a saved card' }).optional(),
  email: emailSchema.optional(),
  metadata: metadataSchema,
}, { error: 'must be a JSON object' }).superRefine((data, issues) => {
  const given = (['card', 'token', 'paymentMethodId'] as const).filter((key) => data[key] !== undefined);
  if (given.length === 0) {
    issues.addIssue({ code: 'custom', path: ['card'], message: 'is required: an object with number, expiryMonth, expiryYear and cvv (or send token or paymentMethodId instead)' });
  } else if (given.length > 1) {
    issues.addIssue({ code: 'custom', path: [given[1]], message: 'send exactly one of card, token or paymentMethodId' });
  }
  if (data.email === undefined && data.paymentMethodId === undefined) {
    issues.addIssue({ code: 'custom', path: ['email'], message: 'is required: the payer\'s email address' });
  }
}, evenWhenFieldsFail);

const refundSchema = z.object({
  amount: amountSchema.optional(),
  reason: z.string().trim().max(500, 'must be at most 500 characters').nullish(),
}, { error: 'must be a JSON object' });

const disputeSchema = z.object({
  reason: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
}, { error: 'must be a JSON object' });

const resolveDisputeSchema = z.object({
  won: z.boolean({ error: required('true when the merchant won, false when lost') }),
}, { error: 'must be a JSON object' });

const listSchema = z.object({
  ...pageParams,
  status: enumFilter(PaymentStatus).optional(),
  email: emailSchema.optional(),
  customerId: z.string().refine(isUuid, 'must be a customer id').optional(),
  from: dateTimeSchema.optional(),
  to: dateTimeSchema.optional(),
});

const disputeListSchema = z.object({
  ...pageParams,
  status: enumFilter(DisputeStatus).optional(),
});

/** The card fee of an amount: basis points (rounded half up) plus the fixed part. */
export function cardFee(amount: bigint, settings: Pick<BusinessSettings, 'cardFeeBps' | 'cardFeeFixedMinor'>): bigint {
  return (amount * BigInt(settings.cardFeeBps) + 5_000n) / 10_000n + settings.cardFeeFixedMinor;
}

/**
 * Card payments: charges (server-to-server and for the hosted products), 3-D Secure, settlement
 * to the merchant wallet, refunds and disputes. Money moves only through LedgerService.post:
 * capture books the acquirer's receivable against the merchant's pending balance; settlement
 * moves it to the wallet minus the fee; refunds and disputes reverse from wherever it sits.
 */
export class PaymentService {
  constructor(
    private readonly settings: PaymentSettings,
    private readonly acquirers: { test: CardAcquirer; live: CardAcquirer | null },
    private readonly ledger: LedgerService,
    private readonly wallets: WalletService,
    private readonly events: EventService,
    private readonly pubSub: TesseraPubSub,
    private readonly screen: FraudScreen,
  ) {}

  // ---------------------------------------------------------------- charges

  /**
   * POST /business/payment/charge: the documented server-to-server charge. Refused (400) unless
   * the business enabled it for the mode; the same parameters within 60 s return the same payment.
   */
  async charge(ctx: RequestContext, input: unknown): Promise<Payment> {
    ctx.requireRole(...WRITE_ROLES);
    const data = parseInput(chargeSchema, input ?? {});
    const currency = normalizeCurrency(data.currency);
    const amount = positiveMinor(data.amount, currency);
    const settings = await this.businessSettings(ctx);
    if (!settings.serverToServerCharging) {
      throw new DomainError(ErrorCode.BAD_REQUEST,
        `Server-to-server charging is not enabled for this business in ${ctx.livemode ? 'live' : 'test'} mode; ask an operator to enable it, or use a hosted checkout session`);
    }
    let card: CardPaymentRequest['card'];
    let instrument: unknown[];
    let email = data.email;
    let customerId: string | null = null;
    if (data.card) {
      const details = data.card as CardDetails;
      card = { details };
      instrument = [];
    } else if (data.token !== undefined) {
      const token = data.token;
      card = { redeem: (tx) => redeemCardToken(tx, token) };
      instrument = ['token', token];
    } else {
      const { method, customer } = await savedCardForCharge(ctx, data.paymentMethodId!);
      card = { vaulted: vaultedCardOf(method), paymentMethodId: method.id };
      instrument = ['payment_method', method.id];
      email ??= customer.email;
      customerId = customer.id;
    }
    const dedupe = [amount.toString(), currency, ...instrument, email, data.metadata ?? null];
    return this.createCardPayment(ctx, { amount, currency, email: email!, card, customerId, dedupe, metadata: data.metadata ?? null });
  }

  /** Hands the card to the mode's acquirer; what comes back is safe to keep (never the number). */
  async vaultCard(ctx: RequestContext, card: CardDetails): Promise<VaultedCard> {
    return this.acquirerFor(ctx).vault(card);
  }

  /**
   * Creates and processes one card payment; the entry point for checkout, links, invoices and
   * recurring charges too. The payment records, and fraud screening judges, the context's client
   * address: the payer's on the hosted page, the merchant's server on the API, none in a job.
   * Under an Idempotency-Key the payment is recorded on the key in the
   * transaction that creates it, before the acquirer sees the card; a retry of the key after a
   * crash or an overrun lease runs this again and gets that payment as it is now, never a second
   * charge (docs/decisions.md: "A retried key never repeats an effect that may have happened").
   */
  async createCardPayment(ctx: RequestContext, request: CardPaymentRequest): Promise<Payment> {
    const acquirer = this.acquirerFor(ctx);
    const given = 'details' in request.card ? await acquirer.vault(request.card.details) : 'vaulted' in request.card ? request.card.vaulted : null;
    const paymentMethodId = 'vaulted' in request.card ? request.card.paymentMethodId ?? null : null;
    const dedupeKey = request.dedupe
      ? crypto.createHash('sha256').update(JSON.stringify([...request.dedupe, given ? [given.fingerprint, given.expiryMonth, given.expiryYear] : null])).digest('base64url')
      : null;
    const { payment, proceed, card, resumed } = await inTransaction(ctx, async (tx) => {
      const businessId = tx.requireBusiness();
      const earlier = tx.idempotency?.resourceOf('payment');
      if (earlier) {
        const made = await tx.repo(Payment).findOne({ where: { id: earlier, businessId, livemode: tx.livemode } });
        if (made) return { payment: made, proceed: false, card: given, resumed: true };
      }
      if (dedupeKey) {
        await tx.em.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`charge:${businessId}:${tx.livemode}:${dedupeKey}`]);
        const existing = await tx.repo(Payment).createQueryBuilder('payment')
          .where('payment.business_id = :businessId AND payment.livemode = :livemode AND payment.dedupe_key = :key', { businessId, livemode: tx.livemode, key: dedupeKey })
          .andWhere(`payment.created_at > now() - make_interval(secs => :window)`, { window: CHARGE_DEDUPE_WINDOW_SECONDS })
          .orderBy('payment.created_at', 'DESC')
          .getOne();
        if (existing) {
          await tx.idempotency?.recordResource(tx, 'payment', existing.id);
          return { payment: existing, proceed: false, card: given, resumed: false };
        }
      }
      const card = given ?? await (request.card as { redeem: (tx: RequestContext) => Promise<VaultedCard> }).redeem(tx);
      const customerId = request.customerId ?? (await tx.repo(Customer).findOne({
        select: { id: true }, where: { businessId, livemode: tx.livemode, email: request.email },
      }))?.id ?? null;
      const created = await tx.repo(Payment).save(tx.repo(Payment).create({
        businessId,
        livemode: tx.livemode,
        amount: request.amount,
        currency: request.currency,
        status: PaymentStatus.PENDING,
        email: request.email,
        customerId,
        paymentMethodId,
        cardBrand: card.brand,
        cardLast4: card.last4,
        cardExpiryMonth: card.expiryMonth,
        cardExpiryYear: card.expiryYear,
        cardFingerprint: card.fingerprint,
        cardCountry: card.country,
        cardProviderRef: card.providerRef,
        source: request.source ?? PaymentSource.API,
        sourceId: request.sourceId ?? null,
        dedupeKey,
        ipAddress: tx.clientIp,
        metadata: request.metadata ?? null,
      }));
      await tx.idempotency?.recordResource(tx, 'payment', created.id);
      await this.events.record(tx, 'payment.created', {
        paymentId: created.id, amount: Number(toMajor(created.amount, created.currency)), currency: created.currency.toLowerCase(), status: created.status,
      });
      const blocked = await this.screen(tx, { amount: request.amount, currency: request.currency, email: request.email, card, ipAddress: tx.clientIp });
      if (blocked) {
        await this.fail(tx, created, PaymentFailureReason.BLOCKED, blocked);
        return { payment: created, proceed: false, card, resumed: false };
      }
      this.announce(tx, created);
      return { payment: created, proceed: true, card, resumed: false };
    });
    if (resumed && payment.status === PaymentStatus.PENDING) {
      // Its first run died (or is still waiting) between recording the payment and recording the
      // acquirer's answer; the recovery sweep asks the acquirer again, idempotently on the payment id.
      throw new DomainError(ErrorCode.IDEMPOTENCY_REQUEST_IN_PROGRESS,
        'The charge made with this Idempotency-Key is waiting for the acquirer\'s answer; retry later to get the payment');
    }
    if (!proceed || !card) return payment;
    const authorization = await acquirer.authorize({ paymentId: payment.id, amount: payment.amount, currency: payment.currency, card })
      .catch((error: unknown): Authorization => ({
        outcome: 'declined', reason: 'card_declined', message: `The acquirer could not process the card: ${error instanceof Error ? error.message : String(error)}`,
      }));
    return this.applyAuthorization(ctx, payment.id, authorization, [PaymentStatus.PENDING]).catch(async (error: unknown) => {
      // The recovery sweep recorded the same answer first (this call outlived its two minutes).
      if (!(error instanceof DomainError && error.code === ErrorCode.CONFLICT)) throw error;
      return ctx.repo(Payment).findOneOrFail({ where: { id: payment.id } });
    });
  }

  /**
   * Recovery sweep (a job every minute): a payment left PENDING by a process that died between
   * recording it and recording the acquirer's answer is authorized again. Acquirers take the payment
   * id as the reference of the authorization, so asking again returns the first answer, never a
   * second charge. Returns how many payments it settled the fate of.
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
      const acquirer = row.livemode ? this.acquirers.live : this.acquirers.test;
      const payment = await ctx.repo(Payment).findOneOrFail({ where: { id: row.id } });
      const authorization: Authorization = acquirer
        ? await acquirer.authorize({ paymentId: payment.id, amount: payment.amount, currency: payment.currency, card: vaultedOf(payment) })
          .catch((error: unknown): Authorization => ({ outcome: 'declined', reason: 'card_declined', message: `The acquirer could not process the card: ${error instanceof Error ? error.message : String(error)}` }))
        : { outcome: 'declined', reason: 'card_declined', message: 'No card acquirer is configured for this mode' };
      await this.applyAuthorization(ctx, payment.id, authorization, [PaymentStatus.PENDING])
        .then(() => { reconciled += 1; })
        .catch((error: unknown) => {
          if (!(error instanceof DomainError && error.code === ErrorCode.CONFLICT)) throw error;
        });
    }
    return reconciled;
  }

  /** The 3-D Secure completion: finishes a payment waiting for authentication. */
  async completeThreeDSecure(ctx: RequestContext, paymentId: string): Promise<Payment> {
    ctx.requireRole(...WRITE_ROLES);
    const payment = await this.find(ctx, paymentId);
    if (payment.status !== PaymentStatus.REQUIRES_ACTION) {
      throw new DomainError(ErrorCode.CONFLICT, `The payment is ${payment.status}; only a payment waiting for 3-D Secure (REQUIRES_ACTION) can complete it`);
    }
    const authorization = await this.acquirerFor(ctx).completeAuthentication({
      paymentId: payment.id, amount: payment.amount, currency: payment.currency, card: vaultedOf(payment),
    });
    return this.applyAuthorization(ctx, payment.id, authorization, [PaymentStatus.REQUIRES_ACTION]);
  }

  /** The sandbox's automatic 3-D Secure completion (job); a payment completed meanwhile is left alone. */
  async autoCompleteThreeDSecure(system: RequestContext, paymentId: string): Promise<void> {
    const payment = await system.repo(Payment).findOne({ where: { id: paymentId } });
    if (!payment || payment.status !== PaymentStatus.REQUIRES_ACTION || payment.livemode) return;
    const ctx = system.forBusiness(payment.businessId, payment.livemode ? Mode.LIVE : Mode.TEST);
    const authorization = await this.acquirers.test.completeAuthentication({
      paymentId: payment.id, amount: payment.amount, currency: payment.currency, card: vaultedOf(payment),
    });
    await this.applyAuthorization(ctx, payment.id, authorization, [PaymentStatus.REQUIRES_ACTION]).catch((error) => {
      if (!(error instanceof DomainError && error.code === ErrorCode.CONFLICT)) throw error;
    });
  }

  /** Records the acquirer's answer on a payment still in one of `from`; a concurrent completion gets CONFLICT. */
  private async applyAuthorization(ctx: RequestContext, paymentId: string, authorization: Authorization, from: PaymentStatus[]): Promise<Payment> {
    return inTransaction(ctx, async (tx) => {
      const payment = await this.lock(tx, paymentId);
      if (!from.includes(payment.status)) {
        throw new DomainError(ErrorCode.CONFLICT, `The payment is already ${payment.status}`);
      }
      if (authorization.outcome === 'declined') {
        if (payment.threeDSecure === 'pending') payment.threeDSecure = authorization.reason === 'authentication_failed' ? 'failed' : 'succeeded';
        return this.fail(tx, payment, authorization.reason as PaymentFailureReason, authorization.message);
      }
      if (authorization.outcome === 'authentication_required') {
        await this.persist(tx, payment, { status: PaymentStatus.REQUIRES_ACTION, threeDSecure: 'pending' });
        if (!tx.livemode) {
          await enqueueJob(tx, COMPLETE_3DS_TASK, { paymentId: payment.id }, {
            runAt: new Date(Date.now() + this.settings.sandbox3dsAutoCompleteMs), jobKey: `3ds:${payment.id}`,
          });
        }
        this.announce(tx, payment);
        return payment;
      }
      return this.capture(tx, payment);
    });
  }

  private async capture(tx: RequestContext, payment: Payment): Promise<Payment> {
    await this.persist(tx, payment, {
      status: PaymentStatus.COMPLETED, capturedAt: new Date(), threeDSecure: payment.threeDSecure === 'pending' ? 'succeeded' : payment.threeDSecure,
    });
    const pending = await this.ledger.account(tx, { kind: AccountKind.MERCHANT_PENDING, currency: payment.currency, businessId: payment.businessId });
    const clearing = await this.ledger.account(tx, { kind: AccountKind.PROVIDER_CLEARING, currency: payment.currency });
    await this.ledger.post(tx, {
      kind: 'card_capture', referenceType: 'payment', referenceId: payment.id, description: 'Card payment captured',
      lines: [{ account: pending, amount: payment.amount }, { account: clearing, amount: -payment.amount }],
    });
    await this.events.record(tx, 'payment.completed', {
      paymentId: payment.id, amount: toMajor(payment.amount, payment.currency), currency: payment.currency.toLowerCase(),
    });
    await enqueueJob(tx, SETTLE_PAYMENT_TASK, { paymentId: payment.id }, {
      runAt: new Date(Date.now() + this.settings.settlementDelaySeconds * 1000), jobKey: `settle:${payment.id}`,
    });
    this.announce(tx, payment);
    return payment;
  }

  private async fail(tx: RequestContext, payment: Payment, reason: PaymentFailureReason, message: string): Promise<Payment> {
    await this.persist(tx, payment, { status: PaymentStatus.FAILED, failureReason: reason, failureMessage: message, threeDSecure: payment.threeDSecure });
    await this.events.record(tx, 'payment.failed', { paymentId: payment.id, reason });
    this.announce(tx, payment);
    return payment;
  }

  // ---------------------------------------------------------------- settlement

  /** Sandbox helper: settles a captured payment now instead of after the settlement delay. */
  async sandboxSettle(ctx: RequestContext, paymentId: string): Promise<Payment> {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    return inTransaction(ctx, async (tx) => {
      const payment = await this.lock(tx, (await this.find(tx, paymentId)).id);
      if (payment.status !== PaymentStatus.COMPLETED) {
        throw new DomainError(ErrorCode.CONFLICT, `Only a COMPLETED payment can be settled; this one is ${payment.status}`);
      }
      return this.settle(tx, payment);
    });
  }

  /** The settlement job: a payment not (or no longer) awaiting settlement is left alone. */
  async settleDue(system: RequestContext, paymentId: string): Promise<void> {
    const row = await system.repo(Payment).findOne({ select: { id: true, businessId: true, livemode: true }, where: { id: paymentId } });
    if (!row) return;
    const ctx = system.forBusiness(row.businessId, row.livemode ? Mode.LIVE : Mode.TEST);
    await inTransaction(ctx, async (tx) => {
      const payment = await this.lock(tx, paymentId);
      if (payment.status === PaymentStatus.COMPLETED) await this.settle(tx, payment);
    });
  }

  /**
   * Moves what is left of the capture (minus refunds so far) from pending to the wallet, keeping
   * the fee; the fee never exceeds what settles.
   */
  private async settle(tx: RequestContext, payment: Payment): Promise<Payment> {
    const settling = payment.amount - payment.amountRefunded;
    const settings = await this.businessSettings(tx);
    const fee = minBig(cardFee(payment.amount, settings), settling);
    const net = settling - fee;
    const pending = await this.ledger.account(tx, { kind: AccountKind.MERCHANT_PENDING, currency: payment.currency, businessId: payment.businessId });
    const wallet = await this.ledger.account(tx, { kind: AccountKind.MERCHANT_WALLET, currency: payment.currency, businessId: payment.businessId });
    const fees = await this.ledger.account(tx, { kind: AccountKind.FEES_REVENUE, currency: payment.currency });
    const lines: PostingLine[] = [{ account: pending, amount: -settling }];
    if (net > 0n) lines.push({ account: wallet, amount: net });
    if (fee > 0n) lines.push({ account: fees, amount: fee });
    await this.post(tx, { kind: 'card_settlement', referenceType: 'payment', referenceId: payment.id, description: 'Card payment settled', lines });
    const settledAt = new Date();
    await this.persist(tx, payment, { status: PaymentStatus.SETTLED, settledAt, feeAmount: fee });
    await this.events.record(tx, 'payment.settled', {
      paymentId: payment.id, amount: toMajor(net, payment.currency), currency: payment.currency.toLowerCase(),
      settledAt: settledAt.toISOString(), fee: toMajor(fee, payment.currency), grossAmount: toMajor(settling, payment.currency),
    });
    this.announce(tx, payment);
    return payment;
  }

  // ---------------------------------------------------------------- refunds

  /** Refunds all or part of a captured payment; never more than captured minus refunds and disputes. */
  async refund(ctx: RequestContext, paymentId: string, input: unknown): Promise<{ payment: Payment; refund: Refund }> {
    ctx.requireRole(...WRITE_ROLES);
    const data = parseInput(refundSchema, input ?? {});
    return inTransaction(ctx, async (tx) => {
      const payment = await this.lock(tx, (await this.find(tx, paymentId)).id);
      if (payment.status !== PaymentStatus.COMPLETED && payment.status !== PaymentStatus.SETTLED) {
        throw new DomainError(ErrorCode.CONFLICT, `A ${payment.status} payment cannot be refunded`);
      }
      const refundable = payment.amount - payment.amountRefunded - payment.amountDisputed;
      const amount = data.amount === undefined ? refundable : positiveMinor(data.amount, payment.currency);
      if (refundable <= 0n) throw new DomainError(ErrorCode.CONFLICT, 'Nothing is left to refund on this payment');
      if (amount > refundable) {
        throw validationError({ amount: [`must be at most ${toMajor(refundable, payment.currency)} (captured minus refunds and disputes)`] });
      }
      const settled = payment.status === PaymentStatus.SETTLED;
      const source = await this.ledger.account(tx, {
        kind: settled ? AccountKind.MERCHANT_WALLET : AccountKind.MERCHANT_PENDING, currency: payment.currency, businessId: payment.businessId,
      });
      const clearing = await this.ledger.account(tx, { kind: AccountKind.PROVIDER_CLEARING, currency: payment.currency });
      const refund = await tx.repo(Refund).save(tx.repo(Refund).create({
        businessId: payment.businessId, livemode: payment.livemode, paymentId: payment.id, amount, currency: payment.currency, reason: data.reason ?? null,
      }));
      await this.post(tx, {
        kind: 'card_refund', referenceType: 'refund', referenceId: refund.id, description: 'Card payment refunded',
        lines: [{ account: source, amount: -amount }, { account: clearing, amount }],
      });
      const amountRefunded = payment.amountRefunded + amount;
      await this.persist(tx, payment, { amountRefunded, status: amountRefunded === payment.amount ? PaymentStatus.REFUNDED : payment.status });
      await this.events.record(tx, 'payment.refunded', {
        paymentId: payment.id, amount: toMajor(amount, payment.currency), currency: payment.currency.toLowerCase(), refundId: refund.id,
      });
      this.announce(tx, payment);
      return { payment, refund };
    });
  }

  // ---------------------------------------------------------------- disputes

  /**
   * Sandbox helper: the cardholder disputes a captured payment. The charge amount still captured is
   * debited from the wallet at once, plus the non-refundable dispute fee (an unsettled payment
   * settles first, as it would have long before a real dispute arrives).
   */
  async sandboxOpenDispute(ctx: RequestContext, paymentId: string, input: unknown): Promise<{ payment: Payment; dispute: Dispute }> {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    const data = parseInput(disputeSchema, input ?? {});
    return inTransaction(ctx, async (tx) => {
      let payment = await this.lock(tx, (await this.find(tx, paymentId)).id);
      const earlier = await tx.repo(Dispute).findOne({ select: { status: true }, where: { paymentId: payment.id }, order: { createdAt: 'DESC' } });
      const status = disputeTransition(earlier?.status ?? UNDISPUTED, 'open');
      if (payment.status === PaymentStatus.COMPLETED) payment = await this.settle(tx, payment);
      if (payment.status !== PaymentStatus.SETTLED) {
        throw new DomainError(ErrorCode.CONFLICT, `A ${payment.status} payment cannot be disputed`);
      }
      const amount = payment.amount - payment.amountRefunded;
      const settings = await this.businessSettings(tx);
      const fee = settings.disputeFeeMinor;
      const dispute = await tx.repo(Dispute).save(tx.repo(Dispute).create({
        businessId: payment.businessId, livemode: payment.livemode, paymentId: payment.id, amount, fee, currency: payment.currency,
        reason: data.reason ?? 'fraudulent', status,
      }));
      const wallet = await this.ledger.account(tx, { kind: AccountKind.MERCHANT_WALLET, currency: payment.currency, businessId: payment.businessId });
      const reserve = await this.ledger.account(tx, { kind: AccountKind.DISPUTE_RESERVE, currency: payment.currency });
      const fees = await this.ledger.account(tx, { kind: AccountKind.FEES_REVENUE, currency: payment.currency });
      const lines: PostingLine[] = [{ account: wallet, amount: -(amount + fee) }, { account: reserve, amount }];
      if (fee > 0n) lines.push({ account: fees, amount: fee });
      await this.post(tx, { kind: 'dispute_opened', referenceType: 'dispute', referenceId: dispute.id, description: 'Dispute opened', lines });
      await this.persist(tx, payment, { amountDisputed: amount });
      await this.events.record(tx, 'payment.disputed', {
        paymentId: payment.id, disputeId: dispute.id, disputeAmount: toMajor(amount, payment.currency),
        disputeFee: toMajor(fee, payment.currency), reason: dispute.reason,
      });
      this.announce(tx, payment);
      return { payment, dispute };
    });
  }

  /** Sandbox helper: resolves an open dispute. Won re-credits the charge amount (not the fee); lost changes nothing further. */
  async sandboxResolveDispute(ctx: RequestContext, disputeId: string, input: unknown): Promise<{ payment: Payment; dispute: Dispute }> {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    const { won } = parseInput(resolveDisputeSchema, input ?? {});
    return inTransaction(ctx, async (tx) => {
      const found = isUuid(disputeId)
        ? await tx.repo(Dispute).findOne({ where: { id: disputeId, businessId: tx.requireBusiness(), livemode: tx.livemode } })
        : null;
      if (!found) throw notFound('Dispute');
      const payment = await this.lock(tx, found.paymentId);
      const dispute = await tx.repo(Dispute).createQueryBuilder('d').setLock('pessimistic_write').where('d.id = :id', { id: found.id }).getOneOrFail();
      const status = disputeTransition(dispute.status, won ? 'win' : 'lose');
      const reserve = await this.ledger.account(tx, { kind: AccountKind.DISPUTE_RESERVE, currency: dispute.currency });
      const destination = won
        ? await this.ledger.account(tx, { kind: AccountKind.MERCHANT_WALLET, currency: dispute.currency, businessId: dispute.businessId })
        : await this.ledger.account(tx, { kind: AccountKind.PROVIDER_CLEARING, currency: dispute.currency });
      await this.post(tx, {
        kind: won ? 'dispute_won' : 'dispute_lost', referenceType: 'dispute', referenceId: dispute.id,
        description: won ? 'Dispute won: charge amount re-credited' : 'Dispute lost: charge amount returned to the cardholder',
        lines: [{ account: reserve, amount: -dispute.amount }, { account: destination, amount: dispute.amount }],
      });
      dispute.status = status;
      dispute.resolvedAt = new Date();
      await tx.repo(Dispute).save(dispute);
      await this.persist(tx, payment, won ? { amountDisputed: 0n } : {});
      await this.events.record(tx, won ? 'payment.dispute_won' : 'payment.dispute_lost', {
        paymentId: payment.id, won, chargeAmount: toMajor(dispute.amount, dispute.currency),
      });
      this.announce(tx, payment);
      return { payment, dispute };
    });
  }

  // ---------------------------------------------------------------- reads

  async get(ctx: RequestContext, paymentId: string): Promise<Payment> {
    ctx.requireRole(...ALL_ROLES);
    return this.find(ctx, paymentId);
  }

  /** REST list: newest first, `page` from 1 and `limit` up to 100. */
  async listPage(ctx: RequestContext, query: unknown): Promise<OffsetPage<Payment>> {
    ctx.requireRole(...ALL_ROLES);
    const filters = parseInput(listSchema, query ?? {});
    return offsetPage(this.filtered(ctx, filters), filters.page, filters.limit);
  }

  /** GraphQL connection: newest first, keyset on (createdAt, id); the cursor carries its filters. */
  async connection(ctx: RequestContext, input: unknown, request: PageRequest): Promise<Page<Payment>> {
    ctx.requireRole(...ALL_ROLES);
    const filters = parseInput(listSchema, input ?? {});
    const cursorFilters = { status: filters.status, email: filters.email, customerId: filters.customerId, from: filters.from?.toISOString(), to: filters.to?.toISOString() };
    return keysetPage(this.filtered(ctx, filters), 'payment', request, cursorFilters);
  }

  /** Disputes of the business and mode, newest first; `status` filters, `page`/`limit` paginate. */
  async disputePage(ctx: RequestContext, query: unknown): Promise<OffsetPage<Dispute>> {
    ctx.requireRole(...ALL_ROLES);
    const filters = parseInput(disputeListSchema, query ?? {});
    const disputes = newestFirst(ctx, Dispute, 'dispute');
    if (filters.status) disputes.andWhere('dispute.status = :status', { status: filters.status });
    return offsetPage(disputes, filters.page, filters.limit);
  }

  /** GraphQL connection of disputes, newest first; the cursor carries the status filter. */
  async disputeConnection(ctx: RequestContext, input: unknown, request: PageRequest): Promise<Page<Dispute>> {
    ctx.requireRole(...ALL_ROLES);
    const filters = parseInput(disputeListSchema, input ?? {});
    const disputes = newestFirst(ctx, Dispute, 'dispute');
    if (filters.status) disputes.andWhere('dispute.status = :status', { status: filters.status });
    return keysetPage(disputes, 'dispute', request, { status: filters.status });
  }

  async dispute(ctx: RequestContext, disputeId: string): Promise<Dispute> {
    ctx.requireRole(...ALL_ROLES);
    const dispute = isUuid(disputeId)
      ? await ctx.repo(Dispute).findOne({ where: { id: disputeId, businessId: ctx.requireBusiness(), livemode: ctx.livemode } })
      : null;
    if (!dispute) throw notFound('Dispute');
    return dispute;
  }

  /**
   * The newest payment a source (a checkout session, …) already made or still has in flight, if
   * any: PENDING, REQUIRES_ACTION, COMPLETED or SETTLED (a failed or fully refunded one does not count).
   */
  async takenFor(ctx: RequestContext, source: PaymentSource, sourceId: string): Promise<Payment | null> {
    return newestFirst(ctx, Payment, 'payment')
      .andWhere('payment.source = :source AND payment.source_id = :sourceId', { source, sourceId })
      .andWhere('payment.status NOT IN (:...over)', { over: [PaymentStatus.FAILED, PaymentStatus.REFUNDED] })
      .getOne();
  }

  /** Payments of the caller's business and mode among `ids` (unknown and foreign ids are left out). */
  async byIds(ctx: RequestContext, ids: string[]): Promise<Payment[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return ctx.repo(Payment).find({ where: { id: In(valid), businessId: ctx.requireBusiness(), livemode: ctx.livemode } });
  }

  async refundsOf(ctx: RequestContext, paymentIds: string[]): Promise<Refund[]> {
    if (paymentIds.length === 0) return [];
    return ctx.repo(Refund).createQueryBuilder('refund')
      .where('refund.payment_id IN (:...paymentIds) AND refund.business_id = :businessId AND refund.livemode = :livemode',
        { paymentIds, businessId: ctx.requireBusiness(), livemode: ctx.livemode })
      .orderBy('refund.created_at', 'ASC').getMany();
  }

  async disputesOf(ctx: RequestContext, paymentIds: string[]): Promise<Dispute[]> {
    if (paymentIds.length === 0) return [];
    return ctx.repo(Dispute).createQueryBuilder('dispute')
      .where('dispute.payment_id IN (:...paymentIds) AND dispute.business_id = :businessId AND dispute.livemode = :livemode',
        { paymentIds, businessId: ctx.requireBusiness(), livemode: ctx.livemode })
      .orderBy('dispute.created_at', 'ASC').getMany();
  }

  // ---------------------------------------------------------------- internals

  private filtered(ctx: RequestContext, filters: z.output<typeof listSchema>) {
    const query = newestFirst(ctx, Payment, 'payment');
    if (filters.status) query.andWhere('payment.status = :status', { status: filters.status });
    if (filters.email) query.andWhere('payment.email = :email', { email: filters.email });
    if (filters.customerId) query.andWhere('payment.customer_id = :customerId', { customerId: filters.customerId });
    if (filters.from) query.andWhere('payment.created_at >= :from', { from: filters.from });
    if (filters.to) query.andWhere('payment.created_at <= :to', { to: filters.to });
    return query;
  }

  /**
   * Refuses (422) what would take a card payment in a mode with no card acquirer (live, in this
   * build): a charge, and anything that offers a payer the card form (checkout sessions, payment
   * links), so the merchant hears it when asking, not the payer on the page.
   */
  requireCardPayments(ctx: RequestContext): void {
    this.acquirerFor(ctx);
  }

  private acquirerFor(ctx: RequestContext): CardAcquirer {
    const acquirer = ctx.livemode ? this.acquirers.live : this.acquirers.test;
    if (!acquirer) {
      throw new DomainError(ErrorCode.UNPROCESSABLE, 'No card acquirer is configured for live mode, so live card payments cannot be taken; use test credentials in the sandbox');
    }
    return acquirer;
  }

  private async businessSettings(ctx: RequestContext): Promise<BusinessSettings> {
    const businessId = ctx.requireBusiness();
    // Every business gets both modes' settings when it is created.
    return ctx.repo(BusinessSettings).findOneOrFail({ where: { businessId, livemode: ctx.livemode } });
  }

  private async find(ctx: RequestContext, paymentId: string): Promise<Payment> {
    const payment = isUuid(paymentId)
      ? await ctx.repo(Payment).findOne({ where: { id: paymentId, businessId: ctx.requireBusiness(), livemode: ctx.livemode } })
      : null;
    if (!payment) throw notFound('Payment');
    return payment;
  }

  /** Writes the changes to a locked payment (one UPDATE, no reload) and applies them to the object. */
  private async persist(tx: RequestContext, payment: Payment, changes: Partial<Payment>): Promise<void> {
    const update = { ...changes, updatedAt: new Date() };
    await tx.repo(Payment).update({ id: payment.id }, update as never);
    Object.assign(payment, update);
  }

  private async lock(tx: RequestContext, paymentId: string): Promise<Payment> {
    return tx.repo(Payment).createQueryBuilder('payment').setLock('pessimistic_write').where('payment.id = :id', { id: paymentId }).getOneOrFail();
  }

  private announce(tx: RequestContext, payment: Payment) {
    const change = { businessId: payment.businessId, livemode: payment.livemode, paymentId: payment.id };
    tx.afterCommit(() => this.pubSub.publish(Topic.PAYMENT, change));
  }

  /** Posts to the ledger and tells balance subscribers about every merchant wallet the posting moved. */
  private async post(tx: RequestContext, posting: Posting): Promise<void> {
    const { transaction, balances } = await this.ledger.post(tx, posting);
    for (const line of posting.lines) {
      const balance = balances.get(line.account.id);
      if (line.account.kind === AccountKind.MERCHANT_WALLET && balance !== undefined) {
        this.wallets.announceBalance(tx, line.account, balance, line.amount, transaction);
      }
    }
  }
}

const minBig = (a: bigint, b: bigint) => (a < b ? a : b);

export function vaultedOf(payment: Payment): VaultedCard {
  return {
    providerRef: payment.cardProviderRef, brand: payment.cardBrand, last4: payment.cardLast4, bin: '',
    expiryMonth: payment.cardExpiryMonth, expiryYear: payment.cardExpiryYear, fingerprint: payment.cardFingerprint, country: payment.cardCountry,
  };
}
