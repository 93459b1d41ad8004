import { RequestContext } from '../src/domain/shared/context';
import { loadConfig } from '../src/config';
import { STRIPE_SEARCH_LAG_SECONDS, STRIPE_ZERO_DECIMAL, stripeAmountOf } from '../src/providers/card-acquirer/stripe';
import { FakeStripe } from './support/fake-stripe';
import { TestServer, startTestServer } from './support/harness';
import { CARDS, card, charge, liveChargingMerchant, eventsOf, expectLedgerBalanced } from './support/payments';

/**
 * Issue 29, first slice: live card payments through Stripe (src/providers/card-acquirer/stripe.ts),
 * a real Tessera server with STRIPE_* pointed at the local fake of Stripe's API.
 */
describe('Stripe as the live card acquirer', () => {
  let fake: FakeStripe;
  let server: TestServer;

  beforeAll(async () => {
    fake = await new FakeStripe().start();
    server = await startTestServer({
      paymentSettlementDelaySeconds: 3600,
      stripe: { secretKey: fake.secretKey, webhookSecret: 'whsec_test_fake', apiBase: fake.baseUrl },
    });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  const liveMerchant = () => liveChargingMerchant(server);
  const liveCharge = (merchant: { liveKey: string }, number: string, headers: Record<string, string> = {}) =>
    server.request('POST', '/api/v1/business/payment/charge', {
      headers: { 'x-api-key': merchant.liveKey, ...headers },
      body: { amount: 25.5, currency: 'usd', card: card(number), email: 'payer@example.com' },
    });
  /** The business's journal in a mode, summed per account kind: what a charge posted. */
  const postings = async (businessId: string, livemode: boolean) =>
    Object.fromEntries(
      (
        await server.runtime.dataSource.query(
          `SELECT a.kind, sum(e.amount)::text AS total FROM journal_entries e JOIN ledger_accounts a ON a.id = e.account_id
            WHERE a.business_id = $1 AND a.livemode = $2 GROUP BY a.kind ORDER BY a.kind`,
          [businessId, livemode],
        )
      ).map((row: { kind: string; total: string }) => [row.kind, row.total]),
    );
  const intentsOf = (paymentId: string) =>
    fake
      .list('payment_intent')
      .filter((intent) => (intent.metadata as Record<string, string>).tessera_payment_id === paymentId);

  test('a live charge of 4242 is a confirmed PaymentIntent keyed by the payment id: 201 COMPLETED, posted as a sandbox charge is', async () => {
    const merchant = await liveMerchant();
    const response = await liveCharge(merchant, CARDS.success);
    expect(response.status).toBe(201);
    const payment = response.body.data;
    expect(payment).toMatchObject({
      status: 'COMPLETED',
      amount: '25.50',
      livemode: true,
      card: { brand: 'visa', last4: '4242', country: 'US', fingerprint: expect.any(String) },
    });
    const [intent] = intentsOf(payment.id);
    expect(intentsOf(payment.id)).toHaveLength(1);
    expect(intent).toMatchObject({ status: 'succeeded', amount: 2550, currency: 'usd' });
    const created = fake.requests.find((request) => request.path === '/v1/payment_intents' && request.status === 200);
    expect(created?.idempotencyKey).toBe(payment.id);
    const [row] = await server.runtime.dataSource.query(
      `SELECT row_to_json(p)::text AS json FROM payments p WHERE id = $1`,
      [payment.id],
    );
    expect(row.json).toContain(intent.payment_method as string);
    expect(row.json).not.toContain('4242424242424242');
    // The payment keeps Stripe's reference to it: the PaymentIntent.
    expect(JSON.parse(row.json)).toMatchObject({ acquirer_reference: intent.id });

    // The same charge in test mode goes to the sandbox and posts the same journal.
    const sandbox = await charge(server, merchant, {
      amount: 25.5,
      currency: 'usd',
      card: card(CARDS.success),
      email: 'payer@example.com',
    });
    expect(sandbox.body.data.status).toBe('COMPLETED');
    expect(intentsOf(sandbox.body.data.id)).toEqual([]);
    expect(await postings(merchant.businessId, true)).toEqual(await postings(merchant.businessId, false));
    expect(await postings(merchant.businessId, true)).toMatchObject({ merchant_pending: '2550' });
    const liveEvents = (await eventsOf(server, merchant.businessId)).filter(
      (event) => event.data.paymentId === payment.id,
    );
    expect(liveEvents.map((event) => event.type)).toEqual(['payment.created', 'payment.completed']);
    await expectLedgerBalanced(server);
  });

  test.each([
    ['4000000000000002', 'card_declined'],
    ['4000000000009995', 'insufficient_funds'],
  ])('%s is declined at Stripe: FAILED with %s, as the sandbox fails it', async (number, reason) => {
    const merchant = await liveMerchant();
    const live = await liveCharge(merchant, number);
    const sandbox = await charge(server, merchant, {
      amount: 25.5,
      currency: 'usd',
      card: card(number),
      email: 'payer@example.com',
    });
    expect(live.status).toBe(sandbox.status);
    expect(live.body.data).toMatchObject({ status: 'FAILED', failureReason: reason, livemode: true });
    expect(sandbox.body.data).toMatchObject({ status: 'FAILED', failureReason: reason });
    expect(intentsOf(live.body.data.id)).toEqual([expect.objectContaining({ status: 'requires_payment_method' })]);
    expect(await postings(merchant.businessId, true)).toEqual({});
  });

  test('a 3-D Secure card waits for authentication (REQUIRES_ACTION), as in the sandbox', async () => {
    const merchant = await liveMerchant();
    const response = await liveCharge(merchant, CARDS.threeDs2);
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ status: 'REQUIRES_ACTION', threeDSecure: 'pending' });
    expect(intentsOf(response.body.data.id)).toEqual([expect.objectContaining({ status: 'requires_action' })]);
  });

  test('Stripe down (5xx on every try): 503 SERVICE_UNAVAILABLE, no payment, nothing at Stripe', async () => {
    const merchant = await liveMerchant();
    const before = fake.list('payment_method').length;
    fake.failNext(2, 500); // the card's PaymentMethod, and the SDK's one retry of it
    const down = await liveCharge(merchant, CARDS.success);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(fake.list('payment_method')).toHaveLength(before);
    expect(
      await server.runtime.dataSource.query(`SELECT id FROM payments WHERE business_id = $1 AND livemode`, [
        merchant.businessId,
      ]),
    ).toEqual([]);
    expect(await postings(merchant.businessId, true)).toEqual({});
  });

  test('5xx at the PaymentIntent: 503, the payment PENDING with nothing captured, both tries on one Stripe key', async () => {
    const merchant = await liveMerchant();
    fake.failNext(2, 500, '/v1/payment_intents');
    const down = await liveCharge(merchant, CARDS.success);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
    const [row] = await server.runtime.dataSource.query(
      `SELECT id, status FROM payments WHERE business_id = $1 AND livemode`,
      [merchant.businessId],
    );
    expect(row.status).toBe('PENDING');
    const tries = fake.requests.filter(
      (request) => request.path === '/v1/payment_intents' && request.idempotencyKey === row.id,
    );
    expect(tries.map((request) => request.status)).toEqual([500, 500]);
    expect(intentsOf(row.id)).toEqual([]);
    expect(await postings(merchant.businessId, true)).toEqual({});
    await expectLedgerBalanced(server);
  });

  test('the same Tessera Idempotency-Key twice is one payment and one PaymentIntent', async () => {
    const merchant = await liveMerchant();
    const first = await liveCharge(merchant, CARDS.success, { 'idempotency-key': 'order-77' });
    const second = await liveCharge(merchant, CARDS.success, { 'idempotency-key': 'order-77' });
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(intentsOf(first.body.data.id)).toHaveLength(1);
  });

  test('an answer lost after Stripe applied it: 503, PENDING; the recovery sweep asks Stripe (a search, no new request) and completes it, one PaymentIntent', async () => {
    const merchant = await liveMerchant();
    // The PaymentIntent is made, and its answer lost, twice: the SDK's retry of a closed connection too.
    fake.dropAfterCommit(2, '/v1/payment_intents');
    const lost = await liveCharge(merchant, CARDS.success, { 'idempotency-key': 'order-lost' });
    expect(lost.status).toBe(503);
    const [row] = await server.runtime.dataSource.query(
      `SELECT id, status FROM payments WHERE business_id = $1 AND livemode`,
      [merchant.businessId],
    );
    expect(row.status).toBe('PENDING');
    expect(intentsOf(row.id)).toEqual([expect.objectContaining({ status: 'succeeded' })]);

    const sent = fake.requests.length;
    const system = RequestContext.system(server.runtime.dataSource, 'test');
    expect(await server.runtime.core.payments.reconcilePending(system, 0)).toBeGreaterThanOrEqual(1);
    const [after] = await server.runtime.dataSource.query(
      `SELECT status, acquirer_reference FROM payments WHERE id = $1`,
      [row.id],
    );
    expect(after.status).toBe('COMPLETED');
    expect(intentsOf(row.id)).toHaveLength(1);
    expect(after.acquirer_reference).toBe(intentsOf(row.id)[0].id);
    const sweep = fake.requests.slice(sent);
    expect(sweep.filter((request) => request.method === 'POST')).toEqual([]);
    expect(sweep.map((request) => [request.path, request.query.query])).toContainEqual([
      '/v1/payment_intents/search',
      `metadata['tessera_payment_id']:'${row.id}'`,
    ]);
    await expectLedgerBalanced(server);
  });

  test('a request Stripe never received (5xx before it): the sweep finds nothing at Stripe and FAILS the payment, never charging it', async () => {
    const merchant = await liveMerchant();
    fake.failNext(2, 500, '/v1/payment_intents');
    const down = await liveCharge(merchant, CARDS.success);
    expect(down.status).toBe(503);
    const [row] = await server.runtime.dataSource.query(
      `SELECT id FROM payments WHERE business_id = $1 AND livemode AND status = 'PENDING'`,
      [merchant.businessId],
    );
    const system = RequestContext.system(server.runtime.dataSource, 'test');
    // Younger than Stripe's search lag: not found is no answer yet, the payment waits.
    await server.runtime.core.payments.reconcilePending(system, 0);
    const [young] = await server.runtime.dataSource.query(`SELECT status FROM payments WHERE id = $1`, [row.id]);
    expect(young.status).toBe('PENDING');

    await server.runtime.dataSource.query(
      `UPDATE payments SET created_at = now() - make_interval(secs => $2) WHERE id = $1`,
      [row.id, STRIPE_SEARCH_LAG_SECONDS + 5],
    );
    expect(await server.runtime.core.payments.reconcilePending(system, 0)).toBeGreaterThanOrEqual(1);
    const [after] = await server.runtime.dataSource.query(
      `SELECT status, failure_reason, failure_message FROM payments WHERE id = $1`,
      [row.id],
    );
    expect(after).toMatchObject({ status: 'FAILED', failure_reason: 'processing_error' });
    expect(after.failure_message).toMatch(/never received .*nothing was charged/);
    expect(intentsOf(row.id)).toEqual([]);
    expect(
      fake.requests.filter((request) => request.path === '/v1/payment_intents' && request.idempotencyKey === row.id),
    ).toHaveLength(2);
    expect(await postings(merchant.businessId, true)).toEqual({});
    const events = (await eventsOf(server, merchant.businessId)).filter((event) => event.data.paymentId === row.id);
    expect(events.map((event) => event.type)).toEqual(['payment.created', 'payment.failed']);
  });
});

describe("Stripe's minor units", () => {
  test.each([
    [2550n, 'USD', 2550],
    [5000n, 'JPY', 5000],
    [1500n, 'XOF', 1500],
    [120n, 'UGX', 120],
  ])('%s minor units of %s are %s for Stripe', (amount, currency, expected) => {
    expect(stripeAmountOf(amount, currency)).toBe(expected);
  });

  test('a currency Stripe cannot express (USDC, six digits) is refused unless whole cents', () => {
    expect(stripeAmountOf(1_230_000n, 'USDC')).toBe(123);
    expect(() => stripeAmountOf(1_234_567n, 'USDC')).toThrow(/cannot be taken/);
  });

  test("every zero-decimal currency Tessera supports is one of Stripe's", () => {
    expect(['JPY', 'RWF', 'UGX', 'XOF', 'XAF'].every((code) => STRIPE_ZERO_DECIMAL.has(code))).toBe(true);
  });
});

describe('Stripe settings', () => {
  const env = (values: Record<string, string>) => ({ NODE_ENV: 'test', ...values });

  test('unset: no Stripe, test mode on the sandbox', () => {
    expect(loadConfig(env({}))).toMatchObject({ stripe: undefined, testModeCardAcquirer: 'sandbox' });
  });

  test('set: the key, the webhook secret and Stripe API base by default', () => {
    expect(loadConfig(env({ STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_xyz' })).stripe).toEqual(
      {
        secretKey: 'sk_test_abc123',
        webhookSecret: 'whsec_xyz',
        apiBase: 'https://api.stripe.com',
      },
    );
  });

  test.each([
    [{ STRIPE_SECRET_KEY: 'sk_test_abc' }, /STRIPE_WEBHOOK_SECRET is not/],
    [{ STRIPE_WEBHOOK_SECRET: 'whsec_abc' }, /STRIPE_SECRET_KEY is not/],
    [{ STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' }, /must be a Stripe secret key/],
    [{ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'abc' }, /signing secret \(whsec_/],
    [
      { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc', STRIPE_API_BASE: 'api.stripe.com' },
      /STRIPE_API_BASE must be an absolute http\(s\) URL/,
    ],
    [{ TEST_MODE_CARD_ACQUIRER: 'adyen' }, /must be sandbox or stripe/],
    [{ TEST_MODE_CARD_ACQUIRER: 'stripe' }, /needs STRIPE_SECRET_KEY/],
    [
      { TEST_MODE_CARD_ACQUIRER: 'stripe', STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' },
      /must not move real money/,
    ],
  ])('%j is refused at start with one line', (values, message) => {
    expect(() => loadConfig(env(values))).toThrow(message);
    try {
      loadConfig(env(values));
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
      expect((error as Error).message).not.toMatch(/sk_(test|live)_abc|whsec_abc/);
    }
  });
});
