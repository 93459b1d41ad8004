import crypto from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A local fake of Stripe's API (https://docs.stripe.com/api) for the subset Tessera uses, spoken on
 * the wire as Stripe speaks it, so the official SDK can be pointed at it (`host`, `port`,
 * `protocol: 'http'`): form-encoded bodies in bracket notation, JSON answers, Stripe's ids, objects,
 * error envelope and statuses, idempotent POSTs, signed webhooks. Card outcomes follow Stripe's
 * documented test numbers (https://docs.stripe.com/testing). Tests steer what Stripe cannot be asked
 * for over HTTP (disputes, failed refunds, outages, timeouts, lost answers) through plain methods.
 */

type Params = { [key: string]: Param };
type Param = string | Params | Param[];
type StripeObject = { id: string; object: string; [key: string]: unknown };
/** What an API call answers: an object, a list or a search result. */
type Resource = { object: string; [key: string]: unknown };
type ErrorBody = {
  type: 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  payment_intent?: StripeObject;
  charge?: string;
  doc_url?: string;
};

export interface LoggedRequest {
  method: string;
  path: string;
  query: Params;
  idempotencyKey: string | undefined;
  body: Params;
  /** The status the fake answered (a dropped answer keeps the status it would have had; 0: never applied, lost on its way). */
  status: number;
  replayed: boolean;
}

/** A request `holdNext` holds: the test acts (kills its client) while Stripe has not answered it. */
export interface HeldRequest {
  /** Resolves when the request has arrived (and, held applied, been applied). */
  readonly arrived: Promise<LoggedRequest>;
  /** Resolves when the client's connection has closed (the process that sent it died, say). */
  readonly clientGone: Promise<void>;
  /** Lets the fake go on: it answers a client still waiting; a request held unapplied whose client is gone is never applied. */
  release(): void;
}

export interface WebhookDelivery {
  url: string;
  event: StripeObject;
  payload: string;
  signature: string;
  /** The endpoint's HTTP status, or the connection error's message. */
  outcome: number | string;
}

export interface FakeStripeOptions {
  /** The secret key the fake accepts (`Authorization: Bearer …`). */
  secretKey?: string;
  /** Unix seconds for `created` and balance-transaction dates (tests of date ranges set it). */
  now?: () => number;
}

type CardOutcome =
  | 'succeed'
  | 'generic_decline'
  | 'insufficient_funds'
  | 'authenticate'
  /** Stripe's 4000 0082 6000 3178: authentication required, then declined for insufficient funds once authenticated. */
  | 'authenticate_then_insufficient_funds';

/** Stripe's test card numbers (https://docs.stripe.com/testing) the fake knows; any other valid number succeeds. */
export const STRIPE_TEST_CARDS: Readonly<Record<string, CardOutcome>> = Object.freeze({
  '4242424242424242': 'succeed',
  '4000000000000002': 'generic_decline',
  '4000000000009995': 'insufficient_funds',
  '4000002500003155': 'authenticate',
  '4000000000003220': 'authenticate',
  '4000008260003178': 'authenticate_then_insufficient_funds',
});

/** Currencies Stripe takes in whole units (https://docs.stripe.com/currencies#zero-decimal). */
const ZERO_DECIMAL = new Set('bif clp djf gnf jpy kmf krw mga pyg rwf ugx vnd vuv xaf xof xpf'.split(' '));

/** Stripe's minimum charge amounts (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts), a few. */
const MINIMUM_CHARGE: Readonly<Record<string, number>> = { usd: 50, eur: 50, gbp: 30, cad: 50, aud: 50, jpy: 50 };

/** Issuing countries by the ISO numeric code in Stripe's international test cards (4000 00NN N…). */
const TEST_CARD_COUNTRIES: Readonly<Record<string, string>> = {
  '076': 'BR',
  '124': 'CA',
  '250': 'FR',
  '276': 'DE',
  '356': 'IN',
  '392': 'JP',
  '404': 'KE',
  '484': 'MX',
  '566': 'NG',
  '826': 'GB',
};

const DISPUTE_FEE = 1500;
const API_VERSION = '2025-11-17.clover';

/** A fake Stripe account on 127.0.0.1; `start()` it, point the SDK at `sdkConfig`, `close()` it. */
export class FakeStripe {
  readonly secretKey: string;
  /** Every API request (not the authentication pages), in arrival order. */
  readonly requests: LoggedRequest[] = [];
  readonly deliveries: WebhookDelivery[] = [];
  private readonly now: () => number;
  private readonly objects = new Map<string, StripeObject>();
  /** Card numbers by PaymentMethod id: what only Stripe keeps. */
  private readonly cardNumbers = new Map<string, string>();
  /** PaymentMethods confirmed once without a Customer (Stripe refuses to use them again). */
  private readonly consumedMethods = new Set<string>();
  private readonly idempotent = new Map<string, { fingerprint: string; answer?: Answer }>();
  private readonly endpoints: { url: string; secret: string }[] = [];
  private readonly pendingDeliveries = new Set<Promise<void>>();
  private readonly faults: { status: number; path?: string }[] = [];
  private delays: number[] = [];
  private readonly drops: { path?: string }[] = [];
  private readonly holds: Array<{ path?: string; applied: boolean; hold: Hold }> = [];
  private sequence = 0;
  /**
   * At most this many balance transactions per list page, whatever `limit` asks: a test's handful
   * of transactions then spans several pages, as a busy account's day does at Stripe's 100 a page
   * (https://docs.stripe.com/api/pagination: follow `has_more` with `starting_after`). Null: `limit`.
   */
  balanceTransactionPageSize: number | null = null;
  private readonly server = http.createServer((request, response) => {
    this.receive(request, response).catch((failure: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(failure));
    });
  });
  private port = 0;

  constructor(options: FakeStripeOptions = {}) {
    this.secretKey = options.secretKey ?? `sk_test_fake${crypto.randomBytes(12).toString('hex')}`;
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.pendingDeliveries]);
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Where the API answers, as `STRIPE_API_BASE` takes it. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The SDK's options that point it here. */
  get sdkConfig(): { host: string; port: number; protocol: 'http' } {
    return { host: '127.0.0.1', port: this.port, protocol: 'http' };
  }

  /** Sends every later event to `url`, signed with `secret` as Stripe signs (`Stripe-Signature: t=…,v1=…`). */
  deliverTo(url: string, secret: string): void {
    this.endpoints.push({ url, secret });
  }

  /** Resolves once every webhook sent so far has had its answer. */
  async deliveriesSettled(): Promise<void> {
    while (this.pendingDeliveries.size > 0) await Promise.allSettled([...this.pendingDeliveries]);
  }

  /** The stored object with this id (a copy), or undefined. */
  object(id: string): StripeObject | undefined {
    const found = this.objects.get(id);
    return found && structuredClone(found);
  }

  /**
   * Changes a stored object's fields, as if Stripe had recorded them so (a planted difference for a
   * reconciliation test: Stripe captured another amount than Tessera booked). Not an API of Stripe's.
   */
  alter(id: string, fields: Partial<StripeObject>): void {
    const found = this.objects.get(id);
    if (!found) throw new Error(`The fake Stripe has no object ${id}`);
    Object.assign(found, fields);
  }

  /** Stored objects of one kind (`payment_intent`, `charge`, `refund`, …), oldest first. */
  list(kind: string): StripeObject[] {
    return [...this.objects.values()].filter((item) => item.object === kind).map((item) => structuredClone(item));
  }

  /** The next `count` API requests (to `path` only, when given) answer `status` (Stripe's envelope for it) without being applied. */
  failNext(count: number, status = 500, path?: string): void {
    for (let i = 0; i < count; i++) this.faults.push({ status, path });
  }

  /** The next API request is applied, and its answer held back `ms` (longer than the SDK's timeout: it times out). */
  delayNext(ms: number): void {
    this.delays.push(ms);
  }

  /** The next `count` API requests (to `path` only, when given) are applied, then their sockets destroyed before any answer: the unknown outcome. */
  dropAfterCommit(count = 1, path?: string): void {
    for (let i = 0; i < count; i++) this.drops.push({ path });
  }

  /**
   * The next API request to `path` is held without an answer until `release()`. Applied (the
   * default): Stripe has made what it asked for (a PaymentIntent, a Refund) and its answer is on
   * its way: the unknown outcome of a client killed now. Not applied: the request is still on its
   * way to Stripe; released after its client went away, it never arrives (nothing is applied, no
   * idempotency key is claimed), the request lost with the process that sent it.
   */
  holdNext(path: string, options: { applied?: boolean } = {}): HeldRequest {
    const hold = new Hold();
    this.holds.push({ path, applied: options.applied ?? true, hold });
    return hold;
  }

  /** The cardholder disputes a charge (by charge or PaymentIntent id): Stripe debits the amount and its fee. */
  createDispute(chargeOrIntentId: string, dispute: { amount?: number; reason?: string } = {}): StripeObject {
    const charge = this.chargeOf(chargeOrIntentId);
    const amount = dispute.amount ?? (charge.amount as number);
    const id = this.id('dp');
    const debit = this.balanceTransaction({
      type: 'adjustment',
      reporting_category: 'dispute',
      amount: -amount,
      currency: charge.currency as string,
      source: id,
      description: `Chargeback withdrawal for ${charge.id}`,
      fee: DISPUTE_FEE,
      feeDescription: 'Dispute fee',
    });
    const created = this.store({
      id,
      object: 'dispute',
      amount,
      balance_transactions: [debit],
      charge: charge.id,
      created: this.now(),
      currency: charge.currency,
      evidence_details: { due_by: this.now() + 7 * 86_400, has_evidence: false, past_due: false, submission_count: 0 },
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: charge.payment_intent,
      reason: dispute.reason ?? 'fraudulent',
      status: 'needs_response',
    });
    charge.disputed = true;
    this.emit('charge.dispute.created', created);
    return structuredClone(created);
  }

  /** The dispute's outcome: won gives back the amount and the fee, lost keeps them. */
  closeDispute(id: string, outcome: 'won' | 'lost'): StripeObject {
    const dispute = this.objects.get(id);
    if (!dispute || dispute.object !== 'dispute') throw new Error(`No such dispute: ${id}`);
    if (dispute.status === 'won' || dispute.status === 'lost')
      throw new Error(`Dispute ${id} is already ${dispute.status as string}`);
    const previous = { status: dispute.status };
    if (outcome === 'won') {
      (dispute.balance_transactions as StripeObject[]).push(
        this.balanceTransaction({
          type: 'adjustment',
          reporting_category: 'dispute_reversal',
          amount: dispute.amount as number,
          currency: dispute.currency as string,
          source: id,
          description: `Chargeback reversal for ${dispute.charge as string}`,
          fee: -DISPUTE_FEE,
          feeDescription: 'Dispute fee refund',
        }),
      );
    }
    dispute.status = outcome;
    this.emit('charge.dispute.closed', dispute, previous);
    return structuredClone(dispute);
  }

  /** The card network refuses a refund after it succeeded: the money comes back to the balance. */
  failRefund(id: string, reason = 'expired_or_canceled_card'): StripeObject {
    const refund = this.objects.get(id);
    if (!refund || refund.object !== 'refund') throw new Error(`No such refund: ${id}`);
    if (refund.status === 'failed') throw new Error(`Refund ${id} has already failed`);
    const charge = this.objects.get(refund.charge as string)!;
    const previous = { status: refund.status, failure_balance_transaction: null, failure_reason: null };
    refund.status = 'failed';
    refund.failure_reason = reason;
    refund.failure_balance_transaction = this.balanceTransaction({
      type: 'refund_failure',
      reporting_category: 'refund_failure',
      amount: refund.amount as number,
      currency: refund.currency as string,
      source: id,
      description: `REFUND FAILURE FOR CHARGE (${charge.id})`,
    }).id;
    charge.amount_refunded = (charge.amount_refunded as number) - (refund.amount as number);
    charge.refunded = false;
    this.emit('refund.updated', refund, previous);
    return structuredClone(refund);
  }

  private async receive(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', this.baseUrl);
    if (request.method === 'GET' && url.pathname.startsWith('/authenticate/')) return this.authenticate(url, response);

    const method = request.method ?? 'GET';
    const body = parseForm(raw);
    const query = parseForm(url.search.slice(1));
    const idempotencyKey = method === 'POST' ? header(request, 'idempotency-key') : undefined;
    const entry: LoggedRequest = {
      method,
      path: url.pathname,
      query,
      idempotencyKey,
      body,
      status: 0,
      replayed: false,
    };
    this.requests.push(entry);

    const held = takeFor(this.holds, url.pathname);
    if (held) {
      response.once('close', () => held.hold.gone());
      if (!held.applied) {
        held.hold.arrive(entry);
        await held.hold.released;
        if (held.hold.isGone || response.destroyed) return; // lost on the way: Stripe never saw it
      }
    }
    const fault = takeFor(this.faults, url.pathname);
    const delay = this.delays.shift() ?? 0;
    const fingerprint = JSON.stringify([method, url.pathname, canonical(body)]);
    let answer: Answer;
    if (header(request, 'authorization') !== `Bearer ${this.secretKey}`) {
      answer = errorAnswer(401, {
        type: 'invalid_request_error',
        message: `Invalid API Key provided: ${redactKey(header(request, 'authorization') ?? '')}`,
      });
    } else if (fault) {
      answer = faultAnswer(fault.status);
    } else {
      const claim = idempotencyKey ? this.idempotent.get(idempotencyKey) : undefined;
      if (claim && claim.fingerprint !== fingerprint) {
        answer = errorAnswer(400, {
          type: 'idempotency_error',
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
        });
      } else if (claim && !claim.answer) {
        answer = errorAnswer(409, {
          type: 'idempotency_error',
          code: 'idempotency_key_in_use',
          message: `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${idempotencyKey}. Please try again later.`,
        });
      } else if (claim?.answer) {
        answer = { ...claim.answer, headers: { ...claim.answer.headers, 'Idempotent-Replayed': 'true' } };
        entry.replayed = true;
      } else {
        const newClaim: { fingerprint: string; answer?: Answer } = { fingerprint };
        if (idempotencyKey) this.idempotent.set(idempotencyKey, newClaim);
        // Stripe is slow to process: the key is in use meanwhile, and a client that gives up leaves it applied.
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
        answer = this.apply(method, url.pathname, body, query, idempotencyKey);
        newClaim.answer = answer;
      }
    }
    entry.status = answer.status;

    if (held?.applied) {
      held.hold.arrive(entry);
      await held.hold.released;
    }
    if (takeFor(this.drops, url.pathname)) {
      request.socket.destroy();
      return;
    }
    if (response.destroyed || !response.writable) return;
    response.writeHead(answer.status, answer.headers).end(answer.body);
  }

  /**
   * Stripe's own authentication page, as the payer's browser sees it: finishing it redirects to the
   * return_url. `?outcome=fail` is its test page's "Fail" button: authentication fails
   * (`payment_intent_authentication_failure`); otherwise it succeeds, and the card's outcome follows.
   */
  private authenticate(url: URL, response: http.ServerResponse): void {
    const intent = this.objects.get(url.pathname.slice('/authenticate/'.length));
    if (!intent || intent.object !== 'payment_intent') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('No such authentication');
      return;
    }
    if (intent.status === 'requires_action') {
      const previous = { status: intent.status, next_action: intent.next_action };
      intent.next_action = null;
      if (url.searchParams.get('outcome') === 'fail') {
        this.failIntent(intent, {
          type: 'invalid_request_error',
          code: 'payment_intent_authentication_failure',
          message:
            'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
        });
        this.emit('payment_intent.payment_failed', intent, previous);
      } else if (this.outcomeOf(intent.payment_method as string) === 'authenticate_then_insufficient_funds') {
        const failure = {
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
        };
        const charge = this.charge(intent, 'failed', failure);
        this.failIntent(intent, {
          type: 'card_error',
          ...failure,
          charge: charge.id,
          doc_url: 'https://docs.stripe.com/error-codes/card-declined',
          payment_method: structuredClone(this.objects.get(intent.payment_method as string)),
        });
        this.emit('payment_intent.payment_failed', intent, previous);
      } else {
        this.succeed(intent);
        this.emit('payment_intent.succeeded', intent, previous);
      }
    }
    const back = intent.return_url as string | null;
    if (!back) {
      response.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>Authentication complete.</p>');
      return;
    }
    const target = new URL(back);
    target.searchParams.set('payment_intent', intent.id);
    target.searchParams.set('payment_intent_client_secret', intent.client_secret as string);
    target.searchParams.set('redirect_status', intent.status === 'succeeded' ? 'succeeded' : 'failed');
    response.writeHead(302, { Location: target.toString() }).end();
  }

  private apply(method: string, path: string, body: Params, query: Params, idempotencyKey?: string): Answer {
    const requestId = this.id('req');
    const parts = path.split('/').filter(Boolean);
    try {
      const route = `${method} /${parts.map((part, i) => (i === 2 && part !== 'search' ? ':id' : part)).join('/')}`;
      const result = this.route(route, parts[2], body, query, { requestId, idempotencyKey });
      const expanded = this.expand(result, [...strings(body.expand), ...strings(query.expand)]);
      return jsonAnswer(200, expanded, requestId);
    } catch (failure) {
      if (failure instanceof StripeFailure) return errorAnswer(failure.status, failure.error, requestId);
      throw failure;
    }
  }

  private route(route: string, id: string, body: Params, query: Params, request: RequestInfo): Resource {
    switch (route) {
      case 'POST /v1/customers':
        return this.createCustomer(body);
      case 'GET /v1/customers/:id':
        return this.find(id, 'customer');
      case 'POST /v1/payment_methods':
        return this.createPaymentMethod(body);
      case 'GET /v1/payment_methods/:id':
        return this.find(id, 'payment_method');
      case 'POST /v1/payment_methods/:id/attach':
        return this.attach(this.find(id, 'payment_method'), body);
      case 'POST /v1/payment_intents':
        return this.createIntent(body, request);
      case 'GET /v1/payment_intents/search':
        return this.searchIntents(query);
      case 'GET /v1/payment_intents/:id':
        return this.find(id, 'payment_intent');
      case 'POST /v1/payment_intents/:id/confirm':
        return this.confirm(this.find(id, 'payment_intent'), body, request);
      case 'POST /v1/refunds':
        return this.createRefund(body, request);
      case 'GET /v1/refunds':
        return this.listRefunds(query);
      case 'GET /v1/refunds/:id':
        return this.find(id, 'refund');
      case 'GET /v1/charges/:id':
        return this.find(id, 'charge');
      case 'GET /v1/disputes/:id':
        return this.find(id, 'dispute');
      case 'GET /v1/events/:id':
        return this.find(id, 'event');
      case 'GET /v1/balance_transactions':
        return this.listBalanceTransactions(query);
      case 'GET /v1/balance_transactions/:id':
        return this.find(id, 'balance_transaction');
      default:
        throw new StripeFailure(404, {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${route.split(' ')[0]}: ${route.split(' ')[1]}).`,
        });
    }
  }

  private createCustomer(body: Params): StripeObject {
    return this.store({
      id: this.id('cus'),
      object: 'customer',
      created: this.now(),
      description: optionalString(body, 'description'),
      email: optionalString(body, 'email'),
      name: optionalString(body, 'name'),
      invoice_settings: { default_payment_method: null },
      livemode: false,
      metadata: metadataOf(body),
    });
  }

  private createPaymentMethod(body: Params): StripeObject {
    if (body.type !== 'card') throw invalid('type', 'Invalid type: must be one of card', 'parameter_invalid_string');
    const card = typeof body.card === 'object' && !Array.isArray(body.card) ? body.card : {};
    const number = typeof card.number === 'string' ? card.number.replace(/\s/g, '') : '';
    if (!number) throw invalid('card[number]', 'Missing required param: card[number].', 'parameter_missing');
    if (!/^\d{12,19}$/.test(number) || !luhn(number))
      throw cardFailure({ code: 'incorrect_number', param: 'number', message: 'Your card number is incorrect.' });
    const month = Number(card.exp_month);
    const year = Number(card.exp_year);
    if (!Number.isInteger(month) || month < 1 || month > 12)
      throw cardFailure({
        code: 'invalid_expiry_month',
        param: 'exp_month',
        message: "Your card's expiration month is invalid.",
      });
    const today = new Date(this.now() * 1000);
    if (
      !Number.isInteger(year) ||
      year < today.getUTCFullYear() ||
      (year === today.getUTCFullYear() && month < today.getUTCMonth() + 1)
    )
      throw cardFailure({
        code: 'invalid_expiry_year',
        param: 'exp_year',
        message: "Your card's expiration year is invalid.",
      });
    const cvc = typeof card.cvc === 'string' ? card.cvc : undefined;
    if (cvc !== undefined && !/^\d{3,4}$/.test(cvc))
      throw cardFailure({ code: 'invalid_cvc', param: 'cvc', message: "Your card's security code is invalid." });
    const id = this.id('pm');
    this.cardNumbers.set(id, number);
    const brand = brandOf(number);
    return this.store({
      id,
      object: 'payment_method',
      allow_redisplay: 'unspecified',
      billing_details: { address: null, email: null, name: null, phone: null },
      card: {
        brand,
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: cvc ? 'unchecked' : null },
        country: TEST_CARD_COUNTRIES[number.slice(6, 9)] ?? 'US',
        display_brand: brand,
        exp_month: month,
        exp_year: year,
        fingerprint: crypto.createHmac('sha256', this.secretKey).update(number).digest('base64url').slice(0, 16),
        funding: 'credit',
        last4: number.slice(-4),
        networks: { available: [brand], preferred: null },
        three_d_secure_usage: { supported: true },
        wallet: null,
      },
      created: this.now(),
      customer: null,
      livemode: false,
      metadata: metadataOf(body),
      type: 'card',
    });
  }

  private attach(method: StripeObject, body: Params): StripeObject {
    const customer = this.find(requiredString(body, 'customer'), 'customer', 'customer');
    if (method.customer && method.customer !== customer.id)
      throw invalid(undefined, `The payment method you provided has already been attached to a customer.`);
    if (this.consumedMethods.has(method.id))
      throw invalid(
        undefined,
        'This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.',
      );
    method.customer = customer.id;
    return method;
  }

  private createIntent(body: Params, request: RequestInfo): StripeObject {
    const amount = positiveInteger(body, 'amount');
    const currency = requiredString(body, 'currency').toLowerCase();
    if (!/^[a-z]{3}$/.test(currency))
      throw invalid('currency', `Invalid currency: ${currency}.`, 'parameter_invalid_string');
    if (amount < (MINIMUM_CHARGE[currency] ?? 1))
      throw invalid('amount', `Amount must be at least ${MINIMUM_CHARGE[currency]} ${currency}`, 'amount_too_small');
    if ((body.capture_method ?? 'automatic') !== 'automatic')
      throw invalid('capture_method', 'The fake takes capture_method=automatic only.', 'parameter_invalid_string');
    if (body.confirm !== 'true' && (body.off_session !== undefined || body.return_url !== undefined))
      throw invalid(
        body.off_session !== undefined ? 'off_session' : 'return_url',
        'This parameter can only be used with confirm=true.',
      );
    const customer = optionalString(body, 'customer');
    if (customer) this.find(customer, 'customer', 'customer');
    const setupFutureUsage = optionalString(body, 'setup_future_usage');
    if (setupFutureUsage !== null && setupFutureUsage !== 'off_session' && setupFutureUsage !== 'on_session')
      throw invalid(
        'setup_future_usage',
        `Invalid setup_future_usage: must be one of on_session, off_session`,
        'parameter_invalid_string',
      );
    const intent = this.store({
      id: this.id('pi'),
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      capture_method: 'automatic',
      client_secret: '',
      confirmation_method: 'automatic',
      created: this.now(),
      currency,
      customer,
      description: optionalString(body, 'description'),
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: metadataOf(body),
      next_action: null,
      payment_method: null,
      payment_method_types: ['card'],
      return_url: null,
      setup_future_usage: setupFutureUsage,
      status: 'requires_payment_method',
    });
    intent.client_secret = `${intent.id}_secret_${crypto.randomBytes(12).toString('base64url')}`;
    const method = optionalString(body, 'payment_method');
    if (method) {
      this.useMethod(intent, method);
      intent.status = 'requires_confirmation';
    }
    return body.confirm === 'true' ? this.confirm(intent, body, request) : intent;
  }

  private useMethod(intent: StripeObject, id: string): void {
    const method = this.find(id, 'payment_method', 'payment_method');
    if (method.customer && !intent.customer)
      throw invalid(
        'payment_method',
        `The provided PaymentMethod belongs to a Customer, but you did not provide the customer parameter. Please provide the customer parameter.`,
      );
    if (method.customer && method.customer !== intent.customer)
      throw invalid(
        'payment_method',
        `The provided PaymentMethod does not belong to the Customer ${intent.customer as string}.`,
      );
    if (!method.customer && this.consumedMethods.has(id))
      throw invalid(
        'payment_method',
        'This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.',
      );
    intent.payment_method = id;
  }

  private confirm(intent: StripeObject, body: Params, request: RequestInfo): StripeObject {
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status as string))
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: `You cannot confirm this PaymentIntent because it has a status of ${intent.status as string}.`,
        payment_intent: structuredClone(intent),
      });
    const method = optionalString(body, 'payment_method');
    if (method) this.useMethod(intent, method);
    if (!intent.payment_method)
      throw invalid(
        'payment_method',
        'You cannot confirm this PaymentIntent because it has no payment method.',
        'payment_intent_unexpected_state',
      );
    const returnUrl = optionalString(body, 'return_url');
    if (returnUrl) intent.return_url = returnUrl;
    const pm = this.objects.get(intent.payment_method as string)!;
    if (!pm.customer) this.consumedMethods.add(pm.id);
    const previous = { status: intent.status };
    intent.last_payment_error = null;
    switch (this.outcomeOf(pm.id)) {
      case 'generic_decline':
        return this.decline(intent, request, { decline_code: 'generic_decline', message: 'Your card was declined.' });
      case 'insufficient_funds':
        return this.decline(intent, request, {
          decline_code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
        });
      case 'authenticate':
      case 'authenticate_then_insufficient_funds':
        if (body.off_session === 'true')
          return this.decline(intent, request, {
            code: 'authentication_required',
            decline_code: 'authentication_required',
            message: 'Your card was declined. This transaction requires authentication.',
          });
        intent.status = 'requires_action';
        intent.next_action = intent.return_url
          ? {
              type: 'redirect_to_url',
              redirect_to_url: { url: `${this.baseUrl}/authenticate/${intent.id}`, return_url: intent.return_url },
            }
          : {
              type: 'use_stripe_sdk',
              use_stripe_sdk: {
                type: 'three_d_secure_redirect',
                stripe_js: `${this.baseUrl}/authenticate/${intent.id}`,
              },
            };
        return intent;
      default:
        this.succeed(intent);
        this.emit('payment_intent.succeeded', intent, previous, request);
        return intent;
    }
  }

  private decline(intent: StripeObject, request: RequestInfo, failure: Omit<ErrorBody, 'type'>): never {
    const charge = this.charge(intent, 'failed', failure);
    const error: ErrorBody = {
      type: 'card_error',
      code: failure.code ?? 'card_declined',
      decline_code: failure.decline_code,
      message: failure.message,
      charge: charge.id,
      doc_url: `https://docs.stripe.com/error-codes/${failure.code ?? 'card-declined'}`,
    };
    this.failIntent(intent, {
      ...error,
      payment_method: structuredClone(this.objects.get(intent.payment_method as string)),
    });
    this.emit('payment_intent.payment_failed', intent, { status: 'requires_confirmation' }, request);
    throw new StripeFailure(402, { ...error, payment_intent: structuredClone(intent) });
  }

  private failIntent(intent: StripeObject, error: ErrorBody & { payment_method?: unknown }): void {
    intent.status = 'requires_payment_method';
    intent.next_action = null;
    intent.last_payment_error = error;
    if (!this.objects.get(intent.payment_method as string)?.customer) intent.payment_method = null;
  }

  private succeed(intent: StripeObject): void {
    const charge = this.charge(intent, 'succeeded');
    charge.balance_transaction = this.balanceTransaction({
      type: 'charge',
      reporting_category: 'charge',
      amount: intent.amount as number,
      currency: intent.currency as string,
      source: charge.id,
      description: (intent.description as string | null) ?? null,
      fee: stripeFee(intent.amount as number, intent.currency as string),
      feeDescription: 'Stripe processing fees',
    }).id;
    intent.status = 'succeeded';
    intent.next_action = null;
    intent.amount_received = intent.amount;
    // Stripe: "If you provide a Customer with the PaymentIntent, you can use this parameter to attach
    // the payment method to the Customer after the PaymentIntent is confirmed" (setup_future_usage).
    const method = this.objects.get(intent.payment_method as string)!;
    if (intent.setup_future_usage && intent.customer && !method.customer) method.customer = intent.customer;
  }

  private charge(
    intent: StripeObject,
    status: 'succeeded' | 'failed',
    failure?: Omit<ErrorBody, 'type'>,
  ): StripeObject {
    const method = this.objects.get(intent.payment_method as string)!;
    const card = method.card as Record<string, unknown>;
    const charge = this.store({
      id: this.id('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: status === 'succeeded' ? intent.amount : 0,
      amount_refunded: 0,
      balance_transaction: null,
      captured: status === 'succeeded',
      created: this.now(),
      currency: intent.currency,
      customer: intent.customer,
      disputed: false,
      failure_code: failure ? (failure.code ?? 'card_declined') : null,
      failure_message: failure?.message ?? null,
      livemode: false,
      metadata: structuredClone(intent.metadata),
      outcome: {
        network_status: status === 'succeeded' ? 'approved_by_network' : 'declined_by_network',
        reason: failure?.decline_code ?? null,
        risk_level: 'normal',
        seller_message:
          status === 'succeeded'
            ? 'Payment complete.'
            : 'The bank did not return any further details with this decline.',
        type: status === 'succeeded' ? 'authorized' : 'issuer_declined',
      },
      paid: status === 'succeeded',
      payment_intent: intent.id,
      payment_method: method.id,
      payment_method_details: {
        type: 'card',
        card: {
          brand: card.brand,
          country: card.country,
          exp_month: card.exp_month,
          exp_year: card.exp_year,
          fingerprint: card.fingerprint,
          funding: card.funding,
          last4: card.last4,
          network: card.brand,
        },
      },
      refunded: false,
      status,
    });
    intent.latest_charge = charge.id;
    return charge;
  }

  private createRefund(body: Params, request: RequestInfo): StripeObject {
    const intentId = optionalString(body, 'payment_intent');
    const chargeId = optionalString(body, 'charge');
    if (!intentId && !chargeId)
      throw invalid(
        undefined,
        'One of the following params should be provided for this request: payment_intent or charge.',
        'parameter_missing',
      );
    const charge = intentId
      ? this.succeededChargeOf(this.find(intentId, 'payment_intent', 'payment_intent'))
      : this.find(chargeId!, 'charge', 'charge');
    const remaining = (charge.amount as number) - (charge.amount_refunded as number);
    if (remaining === 0)
      throw invalid(undefined, `Charge ${charge.id} has already been refunded.`, 'charge_already_refunded');
    const amount = body.amount === undefined ? remaining : positiveInteger(body, 'amount');
    if (amount > remaining)
      throw invalid(
        'amount',
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`,
        'amount_too_large',
      );
    const id = this.id('re');
    const refund = this.store({
      id,
      object: 'refund',
      amount,
      balance_transaction: this.balanceTransaction({
        type: 'refund',
        reporting_category: 'refund',
        amount: -amount,
        currency: charge.currency as string,
        source: id,
        description: 'REFUND FOR CHARGE',
      }).id,
      charge: charge.id,
      created: this.now(),
      currency: charge.currency,
      failure_balance_transaction: null,
      failure_reason: null,
      metadata: metadataOf(body),
      payment_intent: charge.payment_intent,
      reason: optionalString(body, 'reason'),
      status: 'succeeded',
    });
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.emit('charge.refunded', charge, previous, request);
    return refund;
  }

  private searchIntents(query: Params): Resource {
    const text = requiredString(query, 'query');
    const clauses = text.split(/\s+AND\s+/);
    const tests = clauses.map((clause) => {
      const metadata = /^metadata\['([^']+)'\]:'([^']*)'$/.exec(clause.trim());
      if (metadata)
        return (intent: StripeObject) => (intent.metadata as Record<string, string>)[metadata[1]] === metadata[2];
      const field = /^(status|currency|customer):'([^']*)'$/.exec(clause.trim());
      if (field) return (intent: StripeObject) => intent[field[1]] === field[2];
      throw invalid('query', `The fake cannot search for ${clause}`, 'parameter_invalid_string');
    });
    const found = [...this.objects.values()]
      .filter((item) => item.object === 'payment_intent' && tests.every((test) => test(item)))
      .reverse();
    return {
      object: 'search_result',
      data: found,
      has_more: false,
      next_page: null,
      url: '/v1/payment_intents/search',
    };
  }

  /** Stripe's list of refunds (https://docs.stripe.com/api/refunds/list): newest first, of one PaymentIntent or charge when asked, paged by `starting_after`. */
  private listRefunds(query: Params): Resource {
    const intent = optionalString(query, 'payment_intent') ?? undefined;
    const charge = optionalString(query, 'charge') ?? undefined;
    const limit = query.limit === undefined ? 10 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw invalid('limit', 'This value must be between 1 and 100.', 'parameter_invalid_integer');
    let all = [...this.objects.values()]
      .filter((item) => item.object === 'refund')
      .filter(
        (item) =>
          (intent === undefined || item.payment_intent === intent) && (charge === undefined || item.charge === charge),
      )
      .reverse();
    const after = optionalString(query, 'starting_after');
    if (after) {
      const index = all.findIndex((item) => item.id === after);
      if (index < 0) throw invalid('starting_after', `No such refund: '${after}'`, 'resource_missing');
      all = all.slice(index + 1);
    }
    return { object: 'list', data: all.slice(0, limit), has_more: all.length > limit, url: '/v1/refunds' };
  }

  private listBalanceTransactions(query: Params): Resource {
    const created = typeof query.created === 'object' && !Array.isArray(query.created) ? query.created : {};
    const bound = (name: string) => (typeof created[name] === 'string' ? Number(created[name]) : undefined);
    const [gt, gte, lt, lte] = ['gt', 'gte', 'lt', 'lte'].map(bound);
    const type = optionalString(query, 'type') ?? undefined;
    const limit = query.limit === undefined ? 10 : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw invalid('limit', 'This value must be between 1 and 100.', 'parameter_invalid_integer');
    let all = [...this.objects.values()]
      .filter((item) => item.object === 'balance_transaction')
      .filter((item) => {
        const at = item.created as number;
        return (
          (gt === undefined || at > gt) &&
          (gte === undefined || at >= gte) &&
          (lt === undefined || at < lt) &&
          (lte === undefined || at <= lte) &&
          (type === undefined || item.type === type)
        );
      })
      .reverse();
    const after = optionalString(query, 'starting_after');
    if (after) {
      const index = all.findIndex((item) => item.id === after);
      if (index < 0) throw invalid('starting_after', `No such balance transaction: '${after}'`, 'resource_missing');
      all = all.slice(index + 1);
    }
    const page = Math.min(limit, this.balanceTransactionPageSize ?? limit);
    return {
      id: '',
      object: 'list',
      data: all.slice(0, page),
      has_more: all.length > page,
      url: '/v1/balance_transactions',
    };
  }

  private balanceTransaction(entry: {
    type: string;
    reporting_category: string;
    amount: number;
    currency: string;
    source: string;
    description: string | null;
    fee?: number;
    feeDescription?: string;
  }): StripeObject {
    const fee = entry.fee ?? 0;
    return this.store({
      id: this.id('txn'),
      object: 'balance_transaction',
      amount: entry.amount,
      available_on: this.now() + 2 * 86_400,
      created: this.now(),
      currency: entry.currency,
      description: entry.description,
      exchange_rate: null,
      fee,
      fee_details:
        fee === 0
          ? []
          : [
              {
                amount: fee,
                application: null,
                currency: entry.currency,
                description: entry.feeDescription ?? null,
                type: 'stripe_fee',
              },
            ],
      net: entry.amount - fee,
      reporting_category: entry.reporting_category,
      source: entry.source,
      status: 'pending',
      type: entry.type,
    });
  }

  private chargeOf(id: string): StripeObject {
    const found = this.objects.get(id);
    if (found?.object === 'charge') return found;
    if (found?.object === 'payment_intent') return this.succeededChargeOf(found);
    throw new Error(`No such charge or PaymentIntent: ${id}`);
  }

  private succeededChargeOf(intent: StripeObject): StripeObject {
    if (intent.status !== 'succeeded')
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        code: 'charge_not_refundable',
        message: `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
      });
    return this.objects.get(intent.latest_charge as string)!;
  }

  private outcomeOf(paymentMethodId: string): CardOutcome {
    return STRIPE_TEST_CARDS[this.cardNumbers.get(paymentMethodId) ?? ''] ?? 'succeed';
  }

  private find(id: string, kind: string, param = 'id'): StripeObject {
    const found = this.objects.get(id);
    if (!found || found.object !== kind)
      throw new StripeFailure(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param,
        message: `No such ${kind}: '${id}'`,
      });
    return found;
  }

  private expand(result: Resource, paths: string[]): Resource {
    const copy = structuredClone(result);
    const isList = copy.object === 'list' || copy.object === 'search_result';
    for (const given of paths) {
      // A list's items are expanded as Stripe names them, `data.<field>` (the bare field is kept for older callers).
      const path = isList && given.startsWith('data.') ? given.slice('data.'.length) : given;
      const [field, ...rest] = path.split('.');
      const targets = isList ? (copy.data as StripeObject[]) : [copy];
      for (const target of targets) {
        const ref = target[field];
        if (typeof ref !== 'string') continue;
        const found = this.objects.get(ref);
        if (found) target[field] = rest.length > 0 ? this.expand(found, [rest.join('.')]) : structuredClone(found);
      }
    }
    return copy;
  }

  private store(item: StripeObject): StripeObject {
    this.objects.set(item.id, item);
    return item;
  }

  private id(prefix: string): string {
    this.sequence += 1;
    return `${prefix}_${crypto.randomBytes(9).toString('base64url').replace(/[-_]/g, 'x')}${this.sequence.toString(36).padStart(4, '0')}`;
  }

  private emit(type: string, object: StripeObject, previous?: Record<string, unknown>, request?: RequestInfo): void {
    const event = this.store({
      id: this.id('evt'),
      object: 'event',
      api_version: API_VERSION,
      created: this.now(),
      data: previous
        ? { object: structuredClone(object), previous_attributes: previous }
        : { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: this.endpoints.length,
      request: { id: request?.requestId ?? null, idempotency_key: request?.idempotencyKey ?? null },
      type,
    });
    for (const endpoint of this.endpoints) {
      const payload = JSON.stringify(event, null, 2);
      const timestamp = Math.floor(Date.now() / 1000);
      const signature = `t=${timestamp},v1=${crypto.createHmac('sha256', endpoint.secret).update(`${timestamp}.${payload}`).digest('hex')}`;
      const delivery: WebhookDelivery = {
        url: endpoint.url,
        event: structuredClone(event),
        payload,
        signature,
        outcome: 'pending',
      };
      this.deliveries.push(delivery);
      const sending = fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Stripe-Signature': signature,
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body: payload,
      })
        .then(async (answer) => {
          await answer.arrayBuffer();
          delivery.outcome = answer.status;
        })
        .catch((failure: unknown) => {
          delivery.outcome = failure instanceof Error ? failure.message : String(failure);
        })
        .finally(() => this.pendingDeliveries.delete(sending));
      this.pendingDeliveries.add(sending);
    }
  }
}

/** Takes the first of `queue` meant for `path` (or for any path). */
function takeFor<T extends { path?: string }>(queue: T[], path: string): T | undefined {
  const index = queue.findIndex((item) => item.path === undefined || item.path === path);
  return index < 0 ? undefined : queue.splice(index, 1)[0];
}

/** A held request's state (see FakeStripe.holdNext). */
class Hold implements HeldRequest {
  readonly arrived: Promise<LoggedRequest>;
  readonly clientGone: Promise<void>;
  readonly released: Promise<void>;
  isGone = false;
  arrive!: (entry: LoggedRequest) => void;
  gone!: () => void;
  release!: () => void;

  constructor() {
    this.arrived = new Promise((resolve) => {
      this.arrive = resolve;
    });
    this.clientGone = new Promise((resolve) => {
      this.gone = () => {
        this.isGone = true;
        resolve();
      };
    });
    this.released = new Promise((resolve) => {
      this.release = resolve;
    });
  }
}

interface RequestInfo {
  requestId: string;
  idempotencyKey?: string;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: ErrorBody,
  ) {
    super(error.message);
  }
}

function jsonAnswer(status: number, body: unknown, requestId: string): Answer {
  return {
    status,
    headers: { 'Content-Type': 'application/json', 'Request-Id': requestId, 'Stripe-Version': API_VERSION },
    body: JSON.stringify(body, null, 2),
  };
}

function errorAnswer(
  status: number,
  error: ErrorBody,
  requestId = `req_${crypto.randomBytes(7).toString('hex')}`,
): Answer {
  return jsonAnswer(
    status,
    { error: { ...error, request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}` } },
    requestId,
  );
}

function faultAnswer(status: number): Answer {
  if (status === 429)
    return errorAnswer(429, {
      type: 'invalid_request_error',
      code: 'rate_limit',
      message: 'Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits.',
    });
  return errorAnswer(status, {
    type: 'api_error',
    message: 'An unknown error occurred. Please try again later or contact Stripe support.',
  });
}

const invalid = (param: string | undefined, message: string, code?: string) =>
  new StripeFailure(400, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code } : {}),
    ...(param ? { param } : {}),
  });

const cardFailure = (error: Omit<ErrorBody, 'type'>) => new StripeFailure(402, { type: 'card_error', ...error });

/** Stripe's standard card pricing, roughly: 2.9 % and 30 minor units (none in a zero-decimal currency). */
function stripeFee(amount: number, currency: string): number {
  return Math.round(amount * 0.029) + (ZERO_DECIMAL.has(currency) ? 0 : 30);
}

function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(number)) return 'discover';
  if (/^35/.test(number)) return 'jcb';
  if (/^(36|38|30[0-5])/.test(number)) return 'diners';
  if (/^62/.test(number)) return 'unionpay';
  return 'unknown';
}

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * Stripe's form bodies: `a=1&b[c]=2&d[]=3&d[1]=4`, the bracket notation of the `qs` library the
 * SDKs write, into nested objects and arrays.
 */
export function parseForm(text: string): Params {
  const root: Params = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const keys = name.split('[').map((part, i) => (i === 0 ? part : part.replace(/\]$/, '')));
    let node: Params | Param[] = root;
    keys.forEach((key, i) => {
      const slots = node as unknown as Record<string | number, Param>;
      const slot = Array.isArray(node) ? (key === '' ? node.length : Number(key)) : key;
      if (i === keys.length - 1) {
        slots[slot] = value;
        return;
      }
      const nextIsArray = keys[i + 1] === '' || /^\d+$/.test(keys[i + 1]);
      slots[slot] ??= nextIsArray ? [] : {};
      node = slots[slot] as Params | Param[];
    });
  }
  return root;
}

function canonical(value: Param): unknown {
  if (typeof value === 'string' || Array.isArray(value)) return Array.isArray(value) ? value.map(canonical) : value;
  return Object.keys(value)
    .sort()
    .map((key) => [key, canonical(value[key])]);
}

function strings(value: Param | undefined): string[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return [value];
  return (Array.isArray(value) ? value : Object.values(value)).filter(
    (item): item is string => typeof item === 'string',
  );
}

function optionalString(body: Params, name: string): string | null {
  const value = body[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

function requiredString(body: Params, name: string): string {
  const value = optionalString(body, name);
  if (value === null) throw invalid(name, `Missing required param: ${name}.`, 'parameter_missing');
  return value;
}

function positiveInteger(body: Params, name: string): number {
  const text = requiredString(body, name);
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1)
    throw invalid(name, `Invalid positive integer`, 'parameter_invalid_integer');
  return value;
}

function metadataOf(body: Params): Record<string, string> {
  const metadata = body.metadata;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  return Object.fromEntries(
    Object.entries(metadata).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

function header(request: http.IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function redactKey(authorization: string): string {
  const key = authorization.replace(/^Bearer\s+/i, '');
  return key.length > 8 ? `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` : '****';
}
