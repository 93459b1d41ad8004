import Stripe from 'stripe';
import { CURRENCY_EXPONENTS } from '../src/domain/shared/money';
import { stripeAmountOf, tesseraAmountOf } from '../src/providers/card-acquirer/stripe';
import { FakeStripe } from './support/fake-stripe';

type StripeObject = Record<string, any>;
import { TestServer, startDeliveringServer } from './support/harness';
import { CARDS, completedLiveCharge, eventsOf, expectLedgerBalanced, liveChargingMerchant } from './support/payments';
import { waitFor, waitUntil } from './support/wait';

const WEBHOOK_SECRET = 'whsec_disputes_fake';
const WEBHOOKS_PATH = '/providers/stripe/webhooks';
/** Tessera's dispute fee by default (business_settings.dispute_fee_minor): 15.00. */
const TESSERA_DISPUTE_FEE = 1500n;

/**
 * Issue 29: Stripe's disputes drive Tessera's (src/providers/card-acquirer/stripe-disputes.ts). A
 * live 4242 charge through a Tessera server pointed at the local fake of Stripe, then the fake's
 * dispute, delivered as Stripe delivers it (signed, to `POST /providers/stripe/webhooks`) and
 * applied by the worker through the inbox.
 */
describe("Stripe's disputes drive Tessera's", () => {
  let fake: FakeStripe;
  let server: TestServer;

  beforeAll(async () => {
    fake = await new FakeStripe().start();
    server = await startDeliveringServer({
      // Payments settle at once, so the wallet holds what a dispute takes.
      paymentSettlementDelaySeconds: 0,
      stripe: { secretKey: fake.secretKey, webhookSecret: WEBHOOK_SECRET, apiBase: fake.baseUrl },
    });
    fake.deliverTo(`${server.baseUrl}${WEBHOOKS_PATH}`, WEBHOOK_SECRET);
  });
  afterAll(async () => {
    await fake.close();
    await server.close();
  });

  const query = <T = any>(sql: string, params: unknown[]) => server.runtime.dataSource.query<T[]>(sql, params);

  /** A live merchant with a settled float (100.00 charged: 96.80 in the wallet) and one settled 25.50 payment to dispute. */
  const disputablePayment = async () => {
    const merchant = await liveChargingMerchant(server);
    const { liveKey } = merchant;
    const liveCharge = (amount: number) => completedLiveCharge(server, liveKey, amount);
    await liveCharge(100);
    const paymentId = await liveCharge(25.5);
    await waitUntil(
      async () =>
        Number(
          (
            await query(`SELECT count(*) AS n FROM payments WHERE business_id = $1 AND status = 'SETTLED'`, [
              merchant.businessId,
            ])
          )[0].n,
        ) === 2,
      'both live payments settled',
    );
    const [intent] = fake
      .list('payment_intent')
      .filter((item) => (item.metadata as Record<string, string>).tessera_payment_id === paymentId);
    return { merchant, liveKey, paymentId, intentId: intent.id };
  };

  const liveWallet = async (businessId: string) =>
    BigInt(
      (
        await query(
          `SELECT balance::text FROM ledger_accounts WHERE kind = 'merchant_wallet' AND business_id = $1 AND livemode AND currency = 'USD'`,
          [businessId],
        )
      )[0].balance,
    );
  /** What one ledger move of a dispute posted, summed per account kind. */
  const postingsOf = async (disputeId: string, kind: string) =>
    Object.fromEntries(
      (
        await query<{ kind: string; total: string }>(
          `SELECT a.kind, sum(e.amount)::text AS total FROM journal_transactions t
             JOIN journal_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
            WHERE t.reference_type = 'dispute' AND t.reference_id = $1 AND t.kind = $2 GROUP BY a.kind`,
          [disputeId, kind],
        )
      ).map((row) => [row.kind, row.total]),
    );
  const disputesOf = (paymentId: string) =>
    query(
      `SELECT id, status, amount::text, fee::text, reason, livemode, acquirer_dispute_id FROM disputes WHERE payment_id = $1`,
      [paymentId],
    );
  /** The inbox's row of a Stripe event, once the worker has applied (or ignored) it. */
  const appliedEvent = async (eventId: string) => {
    const [row] = await waitFor(
      () => query(`SELECT outcome, attempts, last_error FROM provider_events WHERE event_id = $1`, [eventId]),
      (rows) => rows[0]?.outcome != null,
    );
    return row;
  };
  const lastEventOf = (type: string, objectId: string) =>
    fake.deliveries
      .filter((delivery) => delivery.event.type === type && dataObjectOf(delivery.event).id === objectId)
      .at(-1)!;
  /** An event posted as Stripe posts it: the exact bytes, signed now with the endpoint's secret. */
  const post = (payload: string) =>
    server.request('POST', WEBHOOKS_PATH, {
      rawBody: payload,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
    });
  /** A Stripe event of our own making around a dispute object (a new event id each time). */
  const eventAbout = (type: string, dispute: StripeObject) =>
    JSON.stringify({
      id: `evt_test_${Math.random().toString(36).slice(2)}`,
      object: 'event',
      api_version: '2025-11-17.clover',
      created: Math.floor(Date.now() / 1000),
      data: { object: dispute },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });

  test('charge.dispute.created opens one dispute: the debit of the amount and Tessera’s fee, payment.disputed; won returns the amount, not the fee', async () => {
    const { merchant, liveKey, paymentId, intentId } = await disputablePayment();
    const before = await liveWallet(merchant.businessId);

    const asked = fake.requests.length;
    const stripeDispute = fake.createDispute(intentId, { reason: 'product_not_received' });
    await fake.deliveriesSettled();
    const created = lastEventOf('charge.dispute.created', stripeDispute.id);
    expect(created.outcome).toBe(200);
    expect(await appliedEvent(created.event.id)).toEqual({
      outcome: 'applied',
      attempts: 1,
      last_error: null,
    });

    const [dispute] = await disputesOf(paymentId);
    expect(await disputesOf(paymentId)).toHaveLength(1);
    expect(dispute).toMatchObject({
      status: 'OPEN',
      amount: '2550',
      fee: String(TESSERA_DISPUTE_FEE),
      reason: 'product_not_received',
      livemode: true,
      acquirer_dispute_id: stripeDispute.id,
    });
    expect(await postingsOf(dispute.id, 'dispute_opened')).toEqual({
      merchant_wallet: String(-2550n - TESSERA_DISPUTE_FEE),
      dispute_reserve: '2550',
      fees_revenue: String(TESSERA_DISPUTE_FEE),
    });
    expect(await liveWallet(merchant.businessId)).toBe(before - 2550n - TESSERA_DISPUTE_FEE);
    // Found by the payment's stored reference of the intent: Stripe was not asked.
    expect(fake.requests.slice(asked)).toEqual([]);
    expect((await eventsOf(server, merchant.businessId, 'payment.disputed')).map((event) => event.data)).toEqual([
      { paymentId, disputeId: dispute.id, disputeAmount: '25.50', disputeFee: '15.00', reason: 'product_not_received' },
    ]);
    const detail = await server.request('GET', `/api/v1/business/payments/${paymentId}`, {
      headers: { 'x-api-key': liveKey },
    });
    expect(detail.body.data).toMatchObject({ status: 'SETTLED', amountDisputed: '25.50' });

    const closed = fake.closeDispute(stripeDispute.id, 'won');
    await fake.deliveriesSettled();
    const won = lastEventOf('charge.dispute.closed', closed.id);
    expect(await appliedEvent(won.event.id)).toMatchObject({ outcome: 'applied', attempts: 1 });
    expect(await disputesOf(paymentId)).toEqual([expect.objectContaining({ id: dispute.id, status: 'WON' })]);
    expect(await postingsOf(dispute.id, 'dispute_won')).toEqual({ merchant_wallet: '2550', dispute_reserve: '-2550' });
    expect(await liveWallet(merchant.businessId)).toBe(before - TESSERA_DISPUTE_FEE);
    expect((await eventsOf(server, merchant.businessId, 'payment.dispute_won')).map((event) => event.data)).toEqual([
      { paymentId, won: true, chargeAmount: '25.50' },
    ]);
    await expectLedgerBalanced(server);
  });

  test('the same created event delivered three more times, and a new event of the same dispute, open nothing twice', async () => {
    const { merchant, paymentId, intentId } = await disputablePayment();
    const before = await liveWallet(merchant.businessId);
    const stripeDispute = fake.createDispute(intentId);
    await fake.deliveriesSettled();
    const created = lastEventOf('charge.dispute.created', stripeDispute.id);
    await appliedEvent(created.event.id);

    for (let i = 0; i < 3; i++) expect((await post(created.payload)).status).toBe(200);
    // Another event about the same dispute (Stripe's funds_withdrawn, or a created sent anew): applied, nothing opened.
    const again = eventAbout('charge.dispute.funds_withdrawn', fake.object(stripeDispute.id)!);
    expect((await post(again)).status).toBe(200);
    expect(await appliedEvent(JSON.parse(again).id)).toMatchObject({ outcome: 'applied', last_error: null });

    expect(await disputesOf(paymentId)).toHaveLength(1);
    expect(
      Number((await query(`SELECT count(*) AS n FROM provider_events WHERE event_id = $1`, [created.event.id]))[0].n),
    ).toBe(1);
    expect(await liveWallet(merchant.businessId)).toBe(before - 2550n - TESSERA_DISPUTE_FEE);
    expect(await eventsOf(server, merchant.businessId, 'payment.disputed')).toHaveLength(1);

    // The closing told twice resolves once.
    fake.closeDispute(stripeDispute.id, 'won');
    await fake.deliveriesSettled();
    const won = lastEventOf('charge.dispute.closed', stripeDispute.id);
    await appliedEvent(won.event.id);
    const wonAgain = eventAbout('charge.dispute.closed', fake.object(stripeDispute.id)!);
    expect((await post(wonAgain)).status).toBe(200);
    expect(await appliedEvent(JSON.parse(wonAgain).id)).toMatchObject({ outcome: 'applied', last_error: null });
    expect(await eventsOf(server, merchant.businessId, 'payment.dispute_won')).toHaveLength(1);
    expect(await liveWallet(merchant.businessId)).toBe(before - TESSERA_DISPUTE_FEE);
    await expectLedgerBalanced(server);
  });

  test('a lost dispute keeps the debit: the amount goes to the cardholder, the wallet is unchanged; Stripe’s partial amount is the amount', async () => {
    const { merchant, paymentId, intentId } = await disputablePayment();
    const before = await liveWallet(merchant.businessId);
    const stripeDispute = fake.createDispute(intentId, { amount: 1000 });
    await fake.deliveriesSettled();
    await appliedEvent(lastEventOf('charge.dispute.created', stripeDispute.id).event.id);
    const [dispute] = await disputesOf(paymentId);
    expect(dispute).toMatchObject({ status: 'OPEN', amount: '1000', reason: 'fraudulent' });
    expect(await liveWallet(merchant.businessId)).toBe(before - 1000n - TESSERA_DISPUTE_FEE);

    fake.closeDispute(stripeDispute.id, 'lost');
    await fake.deliveriesSettled();
    await appliedEvent(lastEventOf('charge.dispute.closed', stripeDispute.id).event.id);
    expect(await disputesOf(paymentId)).toEqual([expect.objectContaining({ status: 'LOST' })]);
    expect(await postingsOf(dispute.id, 'dispute_lost')).toEqual({
      dispute_reserve: '-1000',
      provider_clearing: '1000',
    });
    expect(await liveWallet(merchant.businessId)).toBe(before - 1000n - TESSERA_DISPUTE_FEE);
    expect((await eventsOf(server, merchant.businessId, 'payment.dispute_lost')).map((event) => event.data)).toEqual([
      { paymentId, won: false, chargeAmount: '10.00' },
    ]);
    expect(await eventsOf(server, merchant.businessId, 'payment.dispute_won')).toEqual([]);
    await expectLedgerBalanced(server);
  });

  test('a closing heard before its opening opens and decides the dispute at once; the late opening changes nothing', async () => {
    const { merchant, paymentId, intentId } = await disputablePayment();
    const before = await liveWallet(merchant.businessId);
    const dispute = {
      id: `du_test_${Math.random().toString(36).slice(2)}`,
      object: 'dispute',
      amount: 2550,
      charge: null,
      currency: 'usd',
      payment_intent: intentId,
      reason: 'fraudulent',
      status: 'lost',
    };
    const closed = eventAbout('charge.dispute.closed', dispute);
    expect((await post(closed)).status).toBe(200);
    expect(await appliedEvent(JSON.parse(closed).id)).toMatchObject({ outcome: 'applied', last_error: null });
    const created = eventAbout('charge.dispute.created', { ...dispute, status: 'needs_response' });
    expect((await post(created)).status).toBe(200);
    expect(await appliedEvent(JSON.parse(created).id)).toMatchObject({ outcome: 'applied', last_error: null });

    const [row] = await disputesOf(paymentId);
    expect(await disputesOf(paymentId)).toHaveLength(1);
    expect(row).toMatchObject({ status: 'LOST', acquirer_dispute_id: dispute.id });
    expect(await postingsOf(row.id, 'dispute_opened')).toEqual({
      merchant_wallet: String(-2550n - TESSERA_DISPUTE_FEE),
      dispute_reserve: '2550',
      fees_revenue: String(TESSERA_DISPUTE_FEE),
    });
    expect(await postingsOf(row.id, 'dispute_lost')).toEqual({ dispute_reserve: '-2550', provider_clearing: '2550' });
    expect(await liveWallet(merchant.businessId)).toBe(before - 2550n - TESSERA_DISPUTE_FEE);
    expect((await eventsOf(server, merchant.businessId)).map((event) => event.type)).toEqual(
      expect.arrayContaining(['payment.disputed', 'payment.dispute_lost']),
    );
    await expectLedgerBalanced(server);
  });

  test('a dispute of a PaymentIntent Tessera did not make, and an inquiry, are recorded as ignored and change nothing', async () => {
    const client = new Stripe(fake.secretKey, { ...fake.sdkConfig, maxNetworkRetries: 0 });
    const method = await client.paymentMethods.create({
      type: 'card',
      card: { number: CARDS.success, exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: '123' },
    });
    const foreign = await client.paymentIntents.create({
      amount: 700,
      currency: 'usd',
      payment_method: method.id,
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    });
    const disputesBefore = Number((await query(`SELECT count(*) AS n FROM disputes`, []))[0].n);
    const stripeDispute = fake.createDispute(foreign.id);
    await fake.deliveriesSettled();
    expect(await appliedEvent(lastEventOf('charge.dispute.created', stripeDispute.id).event.id)).toEqual({
      outcome: 'ignored',
      attempts: 1,
      last_error: null,
    });

    const { paymentId, intentId } = await disputablePayment();
    const inquiry = eventAbout('charge.dispute.created', {
      id: `du_test_${Math.random().toString(36).slice(2)}`,
      object: 'dispute',
      amount: 2550,
      currency: 'usd',
      payment_intent: intentId,
      reason: 'general',
      status: 'warning_needs_response',
    });
    expect((await post(inquiry)).status).toBe(200);
    expect(await appliedEvent(JSON.parse(inquiry).id)).toMatchObject({ outcome: 'ignored', last_error: null });
    expect(await disputesOf(paymentId)).toEqual([]);
    expect(Number((await query(`SELECT count(*) AS n FROM disputes`, []))[0].n)).toBe(disputesBefore);
  });
});

describe("Stripe's minor units back to Tessera's", () => {
  test.each([
    [2550, 'usd', 2550n],
    [5000, 'jpy', 5000n],
    [1500, 'XOF', 1500n],
    [123, 'USDC', 1_230_000n],
  ])('%s of %s from Stripe are %s minor units', (amount, currency, expected) => {
    expect(tesseraAmountOf(amount, currency)).toBe(expected);
  });

  test('every currency Tessera knows goes to Stripe and back unchanged', () => {
    for (const [currency, exponent] of Object.entries(CURRENCY_EXPONENTS)) {
      const amount = 10n ** BigInt(exponent) * 1234n;
      expect([currency, tesseraAmountOf(stripeAmountOf(amount, currency), currency)]).toEqual([currency, amount]);
    }
  });

  test('an amount that is not a whole number of Stripe units is refused', () => {
    expect(() => tesseraAmountOf(10.5, 'usd')).toThrow(/not an amount/);
  });
});

const dataObjectOf = (event: StripeObject) => (event.data as { object: StripeObject }).object;
