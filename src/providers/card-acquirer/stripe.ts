import Stripe from 'stripe';
import type { StripeSettings } from '../../config';
import { CardDetails } from '../../domain/shared/card';
import { DomainError, ErrorCode } from '../../domain/shared/errors';
import { exponentOf } from '../../domain/shared/money';
import {
  AcquirerBalanceTransaction,
  AcquirerTransactionType,
  AuthenticationReturn,
  Authorization,
  AuthorizationRequest,
  BalancePeriod,
  CardAcquirer,
  DeclineReason,
  KeepCardFor,
  PaymentLookup,
  RefundFound,
  RefundLookup,
  RefundRequest,
  SaveCardRequest,
  SavedCard,
  VaultedCard,
} from './port';

/** What a caller hears when Stripe did not answer, or answered that it could not (5xx, 429, a key in use). */
export const CARD_ACQUIRER_UNAVAILABLE =
  'The card acquirer could not be reached; nothing was charged, try again in a moment';

/** Stripe's zero-decimal currencies (https://docs.stripe.com/currencies#zero-decimal): amounts in whole units. */
export const STRIPE_ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

/** Stripe's three-decimal currencies (https://docs.stripe.com/currencies#three-decimal). */
export const STRIPE_THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/**
 * An amount in Tessera's minor units (ISO 4217 exponents) as Stripe takes it: in Stripe's minor
 * units for the currency, which for every currency Tessera and Stripe share are the same digits
 * but are declared here once, so a currency where they differ is converted, or refused when
 * Stripe cannot express it (USDC's six digits).
 */
export function stripeAmountOf(amount: bigint, currency: string): number {
  const code = currency.toUpperCase();
  const shift = stripeShiftOf(code);
  const scale = 10n ** BigInt(Math.abs(shift));
  if (shift < 0 && amount % scale !== 0n)
    throw new DomainError(ErrorCode.UNPROCESSABLE, `Card payments in ${code} cannot be taken by the card acquirer`);
  return Number(shift >= 0 ? amount * scale : amount / scale);
}

/**
 * An amount Stripe reports (a dispute's, in Stripe's minor units for the currency) in Tessera's
 * minor units: the inverse of stripeAmountOf. An amount Tessera's units cannot hold exactly (a
 * fraction of a Tessera unit, which Stripe never sends for a charge Tessera made) is an error.
 */
export function tesseraAmountOf(stripeAmount: number, currency: string): bigint {
  const code = currency.toUpperCase();
  if (!Number.isSafeInteger(stripeAmount)) throw new Error(`Stripe reported ${stripeAmount} ${code}: not an amount`);
  const shift = stripeShiftOf(code);
  const scale = 10n ** BigInt(Math.abs(shift));
  const amount = BigInt(stripeAmount);
  if (shift > 0 && amount % scale !== 0n)
    throw new Error(`Stripe reported ${stripeAmount} ${code}: finer than Tessera's minor units`);
  return shift >= 0 ? amount / scale : amount * scale;
}

/** Stripe's decimal places for a currency minus Tessera's (ISO 4217's). */
function stripeShiftOf(code: string): number {
  const stripeExponent = STRIPE_ZERO_DECIMAL.has(code) ? 0 : STRIPE_THREE_DECIMAL.has(code) ? 3 : 2;
  return stripeExponent - exponentOf(code);
}

/** The SDK's deadline for one request, and how often it retries a failure with the same Idempotency-Key. */
const TIMEOUT_MS = 20_000;
const NETWORK_RETRIES = 1;

/**
 * How far Stripe's search index may lag behind its writes (https://docs.stripe.com/search#data-freshness:
 * "under 1 minute", rarely longer during an outage): a payment younger than this that search does
 * not find may still be at Stripe, so the sweep cannot yet call it never received.
 */
export const STRIPE_SEARCH_LAG_SECONDS = 60;

/**
 * Stripe as the card acquirer, through its official SDK: a card becomes a PaymentMethod (Stripe
 * keeps the number; Tessera its reference and what may be shown), an authorization a confirmed
 * PaymentIntent keyed by Tessera's payment id (`Idempotency-Key` and `metadata.tessera_payment_id`),
 * so asking again, after a crash or from the recovery sweep, returns the first answer and never
 * charges twice. Not answering (a timeout, the network, 5xx, 429) is SERVICE_UNAVAILABLE: the
 * payment stays PENDING for the recovery sweep. Neither the key nor card data is ever logged.
 */
export class StripeCardAcquirer implements CardAcquirer {
  readonly name = 'stripe';
  readonly keepsCardsWithCustomers = true;
  private readonly stripe: Stripe;

  constructor(settings: Pick<StripeSettings, 'secretKey' | 'apiBase'>) {
    const base = new URL(settings.apiBase);
    this.stripe = new Stripe(settings.secretKey, {
      host: base.hostname,
      port: base.port ? Number(base.port) : base.protocol === 'http:' ? 80 : 443,
      protocol: base.protocol === 'http:' ? 'http' : 'https',
      timeout: TIMEOUT_MS,
      maxNetworkRetries: NETWORK_RETRIES,
      telemetry: false,
      appInfo: { name: 'Tessera' },
    });
  }

  async vault(card: CardDetails): Promise<VaultedCard> {
    const method = await answered(() =>
      this.stripe.paymentMethods.create({
        type: 'card',
        card: { number: card.number, exp_month: card.expiryMonth, exp_year: card.expiryYear, cvc: card.cvv },
      }),
    ).catch((error: unknown) => {
      if (error instanceof Stripe.errors.StripeCardError)
        throw new DomainError(ErrorCode.VALIDATION_ERROR, 'The card acquirer refused the card details', {
          card: [error.message],
        });
      throw error;
    });
    const details = method.card!;
    return {
      providerRef: method.id,
      brand: details.brand,
      last4: details.last4,
      bin: card.number.slice(0, 6),
      expiryMonth: details.exp_month,
      expiryYear: details.exp_year,
      fingerprint: details.fingerprint ?? method.id,
      country: details.country ?? 'US',
    };
  }

  /**
   * A card kept for a customer: the Stripe Customer, made on the customer's first save (keyed by
   * Tessera's customer id, so a retry makes one), and the PaymentMethod attached to it, which Stripe
   * requires to use a PaymentMethod more than once. The kept reference names both
   * (`cus_…/pm_…`), so every later charge of the card, and every repeat of one, names the customer.
   */
  async saveForCustomer({ card, customerRef, customerId, email }: SaveCardRequest): Promise<SavedCard> {
    const kept = keptCardOf(card.providerRef);
    const customer = await this.customerOf({ customerRef, customerId, email });
    if (kept.customer !== customer) {
      await answered(() => this.stripe.paymentMethods.attach(kept.paymentMethod, { customer })).catch(
        (error: unknown) => {
          if (
            error instanceof Stripe.errors.StripeCardError ||
            error instanceof Stripe.errors.StripeInvalidRequestError
          )
            throw new DomainError(
              ErrorCode.UNPROCESSABLE,
              `The card acquirer refused to keep the card for later charges: ${error.message}`,
            );
          throw error;
        },
      );
    }
    return { customerRef: customer, card: { ...card, providerRef: `${customer}/${kept.paymentMethod}` } };
  }

  /**
   * A charge that keeps its card (`keepFor`): the customer's Stripe Customer first (made as for a
   * saved card, under the same Idempotency-Key), then the PaymentIntent names it with
   * `setup_future_usage: 'off_session'`, which attaches the PaymentMethod to it once confirmed.
   */
  async authorize(request: AuthorizationRequest): Promise<Authorization> {
    const card = keptCardOf(request.card.providerRef);
    if (!request.keepFor || card.customer) return authorizationOf(await this.confirmedIntent(request));
    const customer = await this.customerOf(request.keepFor);
    const providerRef = `${customer}/${card.paymentMethod}`;
    const authorization = authorizationOf(
      await this.confirmedIntent({ ...request, card: { ...request.card, providerRef } }),
    );
    return { ...authorization, kept: { customerRef: customer, providerRef } };
  }

  /** The Tessera customer's Stripe Customer: the one it has, or one made now, keyed by its id (a retry makes one). */
  private async customerOf({ customerRef, customerId, email }: KeepCardFor): Promise<string> {
    if (customerRef) return customerRef;
    const made = await answered(() =>
      this.stripe.customers.create(
        { email, metadata: { tessera_customer_id: customerId } },
        { idempotencyKey: `tessera-customer-${customerId}` },
      ),
    );
    return made.id;
  }

  /**
   * After the payer's 3-D Secure challenge: the intent as Stripe has it now. The payer's return
   * (Stripe appends `payment_intent=pi_…` to the return_url) must name this payment's intent.
   */
  async completeAuthentication(request: AuthorizationRequest, returned?: AuthenticationReturn): Promise<Authorization> {
    const { id } = await this.confirmedIntent(request);
    if (returned && returned.reference !== id)
      throw new DomainError(ErrorCode.BAD_REQUEST, 'This return from 3-D Secure is not for this payment');
    const intent = await answered(() => this.stripe.paymentIntents.retrieve(id));
    const authorization = authorizationOf(intent);
    return authorization.outcome === 'authentication_required'
      ? {
          outcome: 'declined',
          reason: 'authentication_failed',
          message: '3-D Secure authentication was not completed',
          reference: id,
        }
      : authorization;
  }

  /**
   * The Tessera payment a PaymentIntent was created for (its `metadata.tessera_payment_id`), or
   * null for an intent this account has that Tessera did not make (or Stripe no longer has).
   * Stripe not answering is SERVICE_UNAVAILABLE, as for a charge.
   */
  async paymentIdOfIntent(intentId: string): Promise<string | null> {
    try {
      const intent = await answered(() => this.stripe.paymentIntents.retrieve(intentId));
      return intent.metadata?.tessera_payment_id || null;
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return null;
      throw error;
    }
  }

  /**
   * The payment's PaymentIntent found by its metadata (search: no request that could create it), or
   * null when Stripe has none: the request never reached Stripe, nothing was charged. Not found for
   * a payment younger than the search index's lag is not an answer yet (SERVICE_UNAVAILABLE).
   */
  async find(request: PaymentLookup): Promise<Authorization | null> {
    const found = await answered(() =>
      this.stripe.paymentIntents.search({
        query: `metadata['tessera_payment_id']:'${request.paymentId}'`,
        limit: 10,
      }),
    );
    const intent = found.data.find((candidate) => candidate.metadata?.tessera_payment_id === request.paymentId);
    if (intent) {
      if (!FINAL_STATUSES.has(intent.status))
        throw new DomainError(
          ErrorCode.SERVICE_UNAVAILABLE,
          `Stripe's PaymentIntent ${intent.id} is ${intent.status}: no outcome yet`,
        );
      const found = authorizationOf(intent);
      // An intent that kept its card (setup_future_usage with a Customer): the card is the Customer's now.
      const customer = typeof intent.customer === 'string' ? intent.customer : (intent.customer?.id ?? null);
      const asked = keptCardOf(request.card.providerRef);
      return !asked.customer && customer && intent.setup_future_usage
        ? { ...found, kept: { customerRef: customer, providerRef: `${customer}/${asked.paymentMethod}` } }
        : found;
    }
    if (Date.now() - request.createdAt.getTime() < STRIPE_SEARCH_LAG_SECONDS * 1000)
      throw new DomainError(ErrorCode.SERVICE_UNAVAILABLE, "Stripe's search may not show the payment yet");
    return null;
  }

  /**
   * A Refund of the payment's PaymentIntent, keyed by Tessera's refund id (`Idempotency-Key` and
   * `metadata.tessera_refund_id`): asking again is Stripe's replay, never a second refund.
   */
  async refund(request: RefundRequest): Promise<{ reference: string | null }> {
    const refund = await answered(() =>
      this.stripe.refunds.create(
        {
          payment_intent: request.paymentReference,
          amount: stripeAmountOf(request.amount, request.currency),
          metadata: { tessera_refund_id: request.refundId },
        },
        { idempotencyKey: request.refundId },
      ),
    );
    if (refund.status === 'failed' || refund.status === 'canceled')
      throw new DomainError(
        ErrorCode.UNPROCESSABLE,
        `The card acquirer refused the refund: ${refund.failure_reason ?? refund.status}`,
      );
    return { reference: refund.id };
  }

  /**
   * The refund as Stripe has it, found among the PaymentIntent's refunds (a list, every page, read
   * from Stripe's records: no search index, so no lag behind its writes) by
   * `metadata.tessera_refund_id`; nothing is sent that could make it. Not found: the request never
   * reached Stripe (null), unless the refund is younger than the sweep's lag, when a request still
   * on its way may yet arrive (SERVICE_UNAVAILABLE).
   */
  async findRefund(request: RefundLookup): Promise<RefundFound | null> {
    const refund = await answered(async () => {
      for await (const candidate of this.stripe.refunds.list({ payment_intent: request.paymentReference, limit: 100 }))
        if (candidate.metadata?.tessera_refund_id === request.refundId) return candidate;
      return null;
    });
    if (refund) {
      if (refund.status === 'failed' || refund.status === 'canceled')
        return { outcome: 'failed', reason: refund.failure_reason ?? refund.status };
      // succeeded, pending, requires_action: Stripe accepted it, as its answer to the create would have said.
      return { outcome: 'refunded', reference: refund.id };
    }
    if (Date.now() - request.createdAt.getTime() < STRIPE_SEARCH_LAG_SECONDS * 1000)
      throw new DomainError(
        ErrorCode.SERVICE_UNAVAILABLE,
        'A request for the refund may still be on its way to Stripe',
      );
    return null;
  }

  /**
   * The account's balance transactions created in the period (`created[gte]`, `created[lt]`), every
   * page through the SDK's auto-pagination (`starting_after`), each with its source expanded
   * (`data.source`): a charge's PaymentIntent, and the amount and currency the payer saw.
   */
  async balanceTransactions(period: BalancePeriod): Promise<AcquirerBalanceTransaction[]> {
    return answered(async () => {
      const found: AcquirerBalanceTransaction[] = [];
      const pages = this.stripe.balanceTransactions.list({
        created: { gte: unixSecondsOf(period.from), lt: unixSecondsOf(period.to) },
        limit: 100,
        expand: ['data.source'],
      });
      for await (const transaction of pages) found.push(balanceTransactionOf(transaction));
      return found;
    });
  }

  /**
   * The payment's PaymentIntent, created and confirmed on the first call; every later call with the
   * same payment id is Stripe's replay of that first answer (a decline included, as its 402).
   */
  private async confirmedIntent(request: AuthorizationRequest): Promise<Stripe.PaymentIntent> {
    const card = keptCardOf(request.card.providerRef);
    try {
      return await answered(() =>
        this.stripe.paymentIntents.create(
          {
            amount: stripeAmountOf(request.amount, request.currency),
            currency: request.currency.toLowerCase(),
            payment_method: card.paymentMethod,
            // A saved card is its Customer's PaymentMethod; charged without the payer, it is off-session
            // (a card that asks for authentication then is declined: authentication_required).
            ...(card.customer ? { customer: card.customer } : {}),
            ...(request.offSession ? { off_session: true } : {}),
            // A customer's card charged with the payer present is one kept for later charges
            // (authorize's keepFor, and every repeat of it, rebuilt from the payment's `cus_…/pm_…`):
            // set up for them, which attaches the PaymentMethod to the Customer.
            ...(card.customer && !request.offSession ? { setup_future_usage: 'off_session' as const } : {}),
            // With Tessera's return route, 3-D Secure is a redirect to Stripe's page and back
            // (next_action.redirect_to_url); without one (nobody to send there), nothing may redirect.
            ...(request.returnUrl
              ? { automatic_payment_methods: { enabled: true }, return_url: request.returnUrl }
              : { automatic_payment_methods: { enabled: true, allow_redirects: 'never' as const } }),
            capture_method: 'automatic',
            confirm: true,
            metadata: { tessera_payment_id: request.paymentId },
          },
          { idempotencyKey: request.paymentId },
        ),
      );
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError && error.payment_intent) return error.payment_intent;
      throw error;
    }
  }
}

/**
 * A card reference as the Stripe acquirer hands it out: `pm_…` for a card vaulted for one charge,
 * `cus_…/pm_…` for a card kept for a customer (its PaymentMethod attached to that Stripe Customer).
 */
function keptCardOf(providerRef: string): { paymentMethod: string; customer: string | null } {
  const slash = providerRef.indexOf('/');
  return slash < 0
    ? { paymentMethod: providerRef, customer: null }
    : { paymentMethod: providerRef.slice(slash + 1), customer: providerRef.slice(0, slash) };
}

/** The statuses of an intent confirmed with a card that are its outcome (processing and the like are not yet). */
const FINAL_STATUSES: ReadonlySet<Stripe.PaymentIntent.Status> = new Set([
  'succeeded',
  'requires_action',
  'requires_payment_method',
  'canceled',
]);

/** A PaymentIntent's status as Tessera's answer (an authorization, or its 3-D Secure completion), with the intent's id as reference. */
export function authorizationOf(intent: Stripe.PaymentIntent): Authorization {
  const reference = intent.id;
  switch (intent.status) {
    case 'succeeded':
      return { outcome: 'approved', reference };
    case 'requires_action': {
      const redirectUrl = intent.next_action?.redirect_to_url?.url ?? undefined;
      return { outcome: 'authentication_required', version: '2', reference, ...(redirectUrl ? { redirectUrl } : {}) };
    }
    case 'requires_payment_method':
      return { ...declineOf(intent.last_payment_error), reference };
    case 'canceled':
      return { outcome: 'declined', reason: 'card_declined', message: DECLINES.card_declined, reference };
    default:
      // processing, requires_capture, canceled, …: not an outcome the automatic capture of a card gives.
      throw new Error(`Stripe answered the PaymentIntent ${intent.id} with status ${intent.status}`);
  }
}

const unixSecondsOf = (date: Date) => Math.floor(date.getTime() / 1000);

/** A source Stripe expanded: the fields reconciliation reads of a charge, refund or dispute. */
type ExpandedSource = {
  id: string;
  amount?: number;
  currency?: string;
  payment_intent?: string | { id: string } | null;
};

/** Stripe's balance transaction in Tessera's words (docs/live.md, Reconciliation). */
function balanceTransactionOf(transaction: Stripe.BalanceTransaction): AcquirerBalanceTransaction {
  const source = typeof transaction.source === 'object' ? (transaction.source as unknown as ExpandedSource) : null;
  const sourceId = typeof transaction.source === 'string' ? transaction.source : (source?.id ?? null);
  const type = transactionTypeOf(transaction);
  // The source's own amount and currency (what Tessera booked); the transaction's when Stripe gave no source.
  const currency = source?.currency ?? transaction.currency;
  const stripeAmount = source?.amount ?? Math.abs(transaction.amount);
  const intent = source?.payment_intent;
  return {
    id: transaction.id,
    type,
    acquirerType: transaction.type === 'adjustment' ? transaction.reporting_category : transaction.type,
    sourceId,
    paymentReference: type === 'charge' && intent ? (typeof intent === 'string' ? intent : intent.id) : null,
    amount: tesseraAmountOf(Math.abs(stripeAmount), currency),
    currency: currency.toUpperCase(),
    fee: tesseraAmountOf(transaction.fee, transaction.currency),
    feeCurrency: transaction.currency.toUpperCase(),
    createdAt: new Date(transaction.created * 1000),
  };
}

/** Stripe's types (https://docs.stripe.com/reports/balance-transaction-types) reconciliation compares. */
function transactionTypeOf(transaction: Stripe.BalanceTransaction): AcquirerTransactionType {
  switch (transaction.type) {
    case 'charge':
    case 'payment':
      return 'charge';
    case 'refund':
    case 'payment_refund':
      return 'refund';
    case 'refund_failure':
    case 'payment_failure_refund':
      return 'refund_failure';
    case 'adjustment':
      // A dispute's withdrawal and its reversal when won are adjustments, told apart by category.
      if (transaction.reporting_category === 'dispute') return 'dispute';
      if (transaction.reporting_category === 'dispute_reversal') return 'dispute_reversal';
      return 'other';
    default:
      return 'other';
  }
}

const DECLINES: Record<DeclineReason, string> = {
  card_declined: 'The card was declined',
  insufficient_funds: 'The card has insufficient funds',
  authentication_failed: '3-D Secure authentication failed',
};

/** Stripe's decline codes (https://docs.stripe.com/declines/codes) as Tessera's reasons, with the sandbox's words. */
function declineOf(error: Stripe.PaymentIntent.LastPaymentError | null): Authorization & { outcome: 'declined' } {
  const reason: DeclineReason =
    error?.decline_code === 'insufficient_funds'
      ? 'insufficient_funds'
      : error?.code === 'payment_intent_authentication_failure' || error?.decline_code === 'authentication_required'
        ? 'authentication_failed'
        : 'card_declined';
  return { outcome: 'declined', reason, message: DECLINES[reason] };
}

/**
 * Stripe's answer, or SERVICE_UNAVAILABLE when it gave none: the network or a timeout (the SDK's
 * connection error), its own fault (5xx), its rate limit (429), or the same key still in progress
 * (409). What it refused (4xx) is passed on as it came.
 */
async function answered<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const unavailable =
      error instanceof Stripe.errors.StripeConnectionError ||
      error instanceof Stripe.errors.StripeRateLimitError ||
      (error instanceof Stripe.errors.StripeError && (error.statusCode ?? 500) >= 500) ||
      (error instanceof Stripe.errors.StripeError && error.statusCode === 409);
    if (!unavailable) throw error;
    throw Object.assign(new DomainError(ErrorCode.SERVICE_UNAVAILABLE, CARD_ACQUIRER_UNAVAILABLE), { cause: error });
  }
}
