import crypto from 'node:crypto';
import Stripe from 'stripe';
import { TestMerchant, TestServer, startTestServer } from '../support/harness';
import { CARDS, card, chargingMerchant, expectLedgerBalanced } from '../support/payments';
import { stripeClient, stripeTestSettings } from './support';

const WEBHOOK_SECRET = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
const STRIPE_PATH = '/providers/stripe/webhooks';

/**
 * Issue 29's opt-in suite, the flows through Tessera: a Tessera server whose live mode is Stripe's
 * test mode, charged on the REST face with Stripe's test card numbers (raw card data: the account
 * must have it enabled, hence STRIPE_TEST_RAW_CARD_DATA=true). Stripe cannot reach this machine's
 * webhook endpoint: events are signed here with the SDK's generateTestHeaderString, with the
 * suite's own secret.
 */
describe("Stripe's test mode: live card payments through Tessera", () => {
  const settings = stripeTestSettings();
  const stripe = stripeClient(settings);
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      paymentSettlementDelaySeconds: 3600,
      stripe: { ...settings, webhookSecret: WEBHOOK_SECRET },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const liveMerchant = async (): Promise<TestMerchant & { liveKey: string }> => {
    const merchant = await chargingMerchant(server);
    const liveKey = await server.liveKeyOf(merchant);
    await server.runtime.dataSource.query(
      `UPDATE business_settings SET server_to_server_charging = true WHERE business_id = $1 AND livemode`,
      [merchant.businessId],
    );
    return { ...merchant, liveKey };
  };
  const liveCharge = (merchant: { liveKey: string }, number: string) =>
    server.request('POST', '/api/v1/business/payment/charge', {
      headers: { 'x-api-key': merchant.liveKey },
      body: { amount: 25.5, currency: 'usd', card: card(number), email: 'payer@example.com' },
    });
  const referenceOf = async (paymentId: string): Promise<string> =>
    (await server.runtime.dataSource.query(`SELECT acquirer_reference FROM payments WHERE id = $1`, [paymentId]))[0]
      .acquirer_reference;

  test('4242: 201 COMPLETED, a succeeded PaymentIntent at Stripe, the ledger exact; a partial refund succeeds at Stripe', async () => {
    const merchant = await liveMerchant();
    const charged = await liveCharge(merchant, CARDS.success);
    expect(charged.status).toBe(201);
    expect(charged.body.data).toMatchObject({ status: 'COMPLETED', livemode: true, card: { last4: '4242' } });
    const intent = await stripe.paymentIntents.retrieve(await referenceOf(charged.body.data.id));
    expect(intent).toMatchObject({
      status: 'succeeded',
      amount: 2550,
      metadata: { tessera_payment_id: charged.body.data.id },
    });
    const captures = await server.runtime.dataSource.query(
      `SELECT id FROM journal_transactions WHERE kind = 'card_capture' AND reference_id = $1`,
      [charged.body.data.id],
    );
    expect(captures).toHaveLength(1);

    const refunded = await server.request('POST', `/api/v1/business/payments/${charged.body.data.id}/refunds`, {
      headers: { 'x-api-key': merchant.liveKey },
      body: { amount: 10 },
    });
    expect(refunded.status).toBe(201);
    expect(refunded.body.data).toMatchObject({
      amount: '10.00',
      status: 'succeeded',
      payment: { amountRefunded: '10.00' },
    });
    const atStripe = await stripe.refunds.list({ payment_intent: intent.id });
    expect(atStripe.data).toEqual([
      expect.objectContaining({ amount: 1000, metadata: { tessera_refund_id: refunded.body.data.id } }),
    ]);
    await expectLedgerBalanced(server);
  });

  test.each([
    [CARDS.declined, 'card_declined'],
    ['4000000000009995', 'insufficient_funds'],
  ])('%s: FAILED with %s, nothing posted', async (number, reason) => {
    const merchant = await liveMerchant();
    const charged = await liveCharge(merchant, number);
    expect(charged.body.data).toMatchObject({ status: 'FAILED', failureReason: reason, livemode: true });
    const postings = await server.runtime.dataSource.query(
      `SELECT id FROM journal_transactions WHERE reference_id = $1`,
      [charged.body.data.id],
    );
    expect(postings).toEqual([]);
  });

  test("3220: REQUIRES_ACTION, nextAction.redirectUrl on Stripe's authentication page", async () => {
    const merchant = await liveMerchant();
    const charged = await liveCharge(merchant, CARDS.threeDs2);
    expect(charged.status).toBe(201);
    expect(charged.body.data).toMatchObject({
      status: 'REQUIRES_ACTION',
      threeDSecure: 'pending',
      nextAction: { type: 'three_d_secure', redirectUrl: expect.stringMatching(/^https:\/\/[a-z.]*stripe\.com\//) },
    });
  });

  test("Stripe's own event for a payment, signed here: accepted once; tampered: refused with 400", async () => {
    const merchant = await liveMerchant();
    const charged = await liveCharge(merchant, CARDS.success);
    const intent = await stripe.paymentIntents.retrieve(await referenceOf(charged.body.data.id));
    const payload = JSON.stringify({
      id: `evt_${crypto.randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: null,
      created: Math.floor(Date.now() / 1000),
      data: { object: intent },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'payment_intent.succeeded',
    });
    const send = (body: string, signed = body) =>
      server.request('POST', STRIPE_PATH, {
        rawBody: body,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: signed, secret: WEBHOOK_SECRET }),
        },
      });
    expect((await send(payload)).status).toBe(200);
    expect((await send(payload.replace('"amount":2550', '"amount":1'), payload)).status).toBe(400);
  });
});
