import Stripe from 'stripe';
import { RequestContext } from '../src/domain/shared/context';
import { FakeStripe } from './support/fake-stripe';
import { TestServer, startDeliveringServer, waitFor } from './support/harness';
import { CARDS, card, liveChargingMerchant, expectLedgerBalanced } from './support/payments';

const WEBHOOK_SECRET = 'whsec_test_refunds';
const STRIPE_PATH = '/providers/stripe/webhooks';

/**
 * Issue 29: refunds of live card payments through Stripe's Refunds (booked after Stripe's yes,
 * idempotent on Tessera's refund id), and a refund Stripe fails afterwards reversed in the ledger
 * once, from its signed webhook. A real Tessera server with a worker, STRIPE_* at the local fake.
 */
describe('Refunds through Stripe', () => {
  let fake: FakeStripe;
  let server: TestServer;

  beforeAll(async () => {
    fake = await new FakeStripe().start();
    server = await startDeliveringServer({
      paymentSettlementDelaySeconds: 3600,
      stripe: { secretKey: fake.secretKey, webhookSecret: WEBHOOK_SECRET, apiBase: fake.baseUrl },
    });
    fake.deliverTo(`${server.baseUrl}${STRIPE_PATH}`, WEBHOOK_SECRET);
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  const liveMerchant = () => liveChargingMerchant(server);
  /** A live payment of 25.50 USD, COMPLETED at Stripe: its id and PaymentIntent id. */
  const livePayment = async (merchant: { liveKey: string }) => {
    const response = await server.request('POST', '/api/v1/business/payment/charge', {
      headers: { 'x-api-key': merchant.liveKey },
      body: { amount: 25.5, currency: 'usd', card: card(CARDS.success), email: 'payer@example.com' },
    });
    expect(response.body.data.status).toBe('COMPLETED');
    const [row] = await server.runtime.dataSource.query(`SELECT acquirer_reference FROM payments WHERE id = $1`, [
      response.body.data.id,
    ]);
    return { id: response.body.data.id as string, intent: row.acquirer_reference as string };
  };
  const refund = (merchant: { liveKey: string }, paymentId: string, body: object, headers = {}) =>
    server.request('POST', `/api/v1/business/payments/${paymentId}/refunds`, {
      headers: { 'x-api-key': merchant.liveKey, ...headers },
      body,
    });
  const stripeRefundsOf = (intent: string) => fake.list('refund').filter((item) => item.payment_intent === intent);
  /** The business's live journal, summed per account kind. */
  const postings = async (businessId: string) =>
    Object.fromEntries(
      (
        await server.runtime.dataSource.query(
          `SELECT a.kind, sum(e.amount)::text AS total FROM journal_entries e JOIN ledger_accounts a ON a.id = e.account_id
            WHERE a.business_id = $1 AND a.livemode GROUP BY a.kind ORDER BY a.kind`,
          [businessId],
        )
      ).map((row: { kind: string; total: string }) => [row.kind, row.total]),
    );

  test('partial then full: each a Stripe Refund of the PaymentIntent keyed by the Tessera refund id, booked after it', async () => {
    const merchant = await liveMerchant();
    const payment = await livePayment(merchant);
    const first = await refund(merchant, payment.id, { amount: 10, reason: 'damaged' });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ amount: '10.00', status: 'succeeded', payment: { status: 'COMPLETED' } });
    const [atStripe] = stripeRefundsOf(payment.intent);
    expect(atStripe).toMatchObject({
      amount: 1000,
      status: 'succeeded',
      metadata: { tessera_refund_id: first.body.data.id },
    });
    const sent = fake.requests.filter((request) => request.path === '/v1/refunds');
    expect(sent.at(-1)).toMatchObject({ idempotencyKey: first.body.data.id, status: 200 });
    expect(sent.at(-1)!.body).toMatchObject({ payment_intent: payment.intent, amount: '1000' });
    expect(await postings(merchant.businessId)).toMatchObject({ merchant_pending: '1550' });

    const rest = await refund(merchant, payment.id, {});
    expect(rest.body.data).toMatchObject({ amount: '15.50', payment: { status: 'REFUNDED', amountRefunded: '25.50' } });
    expect(stripeRefundsOf(payment.intent).map((item) => item.amount)).toEqual([1000, 1550]);
    expect(fake.object(fake.object(payment.intent)!.latest_charge as string)).toMatchObject({ refunded: true });
    expect(await postings(merchant.businessId)).toMatchObject({ merchant_pending: '0' });
    await expectLedgerBalanced(server);
  });

  test('Stripe down: 503 with nothing booked; the retry of the Tessera Idempotency-Key refunds once at Stripe', async () => {
    const merchant = await liveMerchant();
    const payment = await livePayment(merchant);
    const before = await postings(merchant.businessId);
    // Stripe applies the refund and the answer is lost, twice (the SDK's retry is replayed, and lost too).
    fake.dropAfterCommit(2, '/v1/refunds');
    const lost = await refund(merchant, payment.id, { amount: 5 }, { 'idempotency-key': 'refund-lost' });
    expect(lost.status).toBe(503);
    expect(lost.body).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(await postings(merchant.businessId)).toEqual(before);
    const shown = await server.request('GET', `/api/v1/business/payments/${payment.id}/refunds`, {
      headers: { 'x-api-key': merchant.liveKey },
    });
    expect(shown.body.data).toMatchObject({ items: [], total: 0 });
    expect(stripeRefundsOf(payment.intent)).toHaveLength(1);

    const retried = await refund(merchant, payment.id, { amount: 5 }, { 'idempotency-key': 'refund-lost' });
    expect(retried.status).toBe(201);
    expect(retried.body.data).toMatchObject({
      amount: '5.00',
      status: 'succeeded',
      payment: { amountRefunded: '5.00' },
    });
    expect(stripeRefundsOf(payment.intent)).toEqual([
      expect.objectContaining({ amount: 500, metadata: { tessera_refund_id: retried.body.data.id } }),
    ]);
    const keys = fake.requests.filter((request) => request.path === '/v1/refunds').map((r) => r.idempotencyKey);
    expect(new Set(keys.slice(-3))).toEqual(new Set([retried.body.data.id]));
    expect(await postings(merchant.businessId)).toMatchObject({ merchant_pending: '2050' });
    await expectLedgerBalanced(server);
  });

  test('Stripe refuses the refund (4xx): 422, nothing booked, the refund shown as failed, the payment unchanged', async () => {
    const merchant = await liveMerchant();
    const payment = await livePayment(merchant);
    // Refunded outside Tessera (the dashboard): Stripe has nothing left to refund.
    await new Stripe(fake.secretKey, { ...fake.sdkConfig }).refunds.create({ payment_intent: payment.intent });
    const refused = await refund(merchant, payment.id, { amount: 5 });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toMatch(/refused the refund/);
    const [row] = await server.runtime.dataSource.query(
      `SELECT status, amount_refunded::text FROM payments WHERE id = $1`,
      [payment.id],
    );
    expect(row).toEqual({ status: 'COMPLETED', amount_refunded: '0' });
    expect(await postings(merchant.businessId)).toMatchObject({ merchant_pending: '2550' });
    const shown = await server.request('GET', `/api/v1/business/payments/${payment.id}/refunds`, {
      headers: { 'x-api-key': merchant.liveKey },
    });
    expect(shown.body.data.items).toEqual([expect.objectContaining({ amount: '5.00', status: 'failed' })]);
  });

  test("refund.updated failed (signed, sent twice): the refund is reversed in the ledger once, the payment's money back", async () => {
    const merchant = await liveMerchant();
    const payment = await livePayment(merchant);
    const full = await refund(merchant, payment.id, {});
    expect(full.body.data.payment.status).toBe('REFUNDED');
    const [atStripe] = stripeRefundsOf(payment.intent);
    expect(await postings(merchant.businessId)).toMatchObject({ merchant_pending: '0' });

    fake.failRefund(atStripe.id);
    await fake.deliveriesSettled();
    const delivery = fake.deliveries.find(
      (item) =>
        item.event.type === 'refund.updated' &&
        (item.event.data as { object: { id: string } }).object.id === atStripe.id,
    )!;
    expect(delivery.outcome).toBe(200);
    const reversed = await waitFor(
      () => server.runtime.dataSource.query(`SELECT status FROM refunds WHERE id = $1`, [full.body.data.id]),
      (rows: Array<{ status: string }>) => rows[0]?.status === 'failed',
    );
    expect(reversed).toEqual([{ status: 'failed' }]);

    // The same event again, and Stripe's other event of the same failure (charge.refund.updated).
    const again = await server.request('POST', STRIPE_PATH, {
      rawBody: delivery.payload,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload: delivery.payload,
          secret: WEBHOOK_SECRET,
        }),
      },
    });
    expect(again.status).toBe(200);
    const twin = JSON.stringify({ ...delivery.event, id: `${delivery.event.id}_twin`, type: 'charge.refund.updated' });
    const other = await server.request('POST', STRIPE_PATH, {
      rawBody: twin,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: twin, secret: WEBHOOK_SECRET }),
      },
    });
    expect(other.status).toBe(200);
    await waitFor(
      () =>
        server.runtime.dataSource.query(`SELECT applied_at FROM provider_events WHERE event_id = $1`, [
          `${delivery.event.id}_twin`,
        ]),
      (rows: Array<{ applied_at: Date | null }>) => rows[0]?.applied_at != null,
    );

    const reversals = await server.runtime.dataSource.query(
      `SELECT id FROM journal_transactions WHERE kind = 'card_refund_failure' AND reference_id = $1`,
      [full.body.data.id],
    );
    expect(reversals).toHaveLength(1);
    expect(await postings(merchant.businessId)).toMatchObject({ merchant_pending: '2550' });
    const [row] = await server.runtime.dataSource.query(
      `SELECT status, amount_refunded::text FROM payments WHERE id = $1`,
      [payment.id],
    );
    expect(row).toEqual({ status: 'COMPLETED', amount_refunded: '0' });
    await expectLedgerBalanced(server);
  });
  /** The refund left pending by a lost answer, made older than the sweep's wait and Stripe's lag. */
  const pendingRefundOf = async (paymentId: string) => {
    // An UPDATE … RETURNING answers [rows, count].
    const [rows]: [Array<{ id: string; status: string }>, number] = await server.runtime.dataSource.query(
      `UPDATE refunds SET created_at = now() - interval '5 minutes' WHERE payment_id = $1 AND status = 'pending' RETURNING id, status`,
      [paymentId],
    );
    expect(rows).toHaveLength(1);
    return rows[0].id;
  };
  const sweep = (olderThanSeconds?: number) =>
    server.runtime.core.refunds.reconcilePending(
      RequestContext.system(server.runtime.dataSource, 'test'),
      olderThanSeconds,
    );
  const refundRow = async (id: string) =>
    (
      await server.runtime.dataSource.query(`SELECT status, acquirer_reference FROM refunds WHERE id = $1`, [id])
    )[0] as { status: string; acquirer_reference: string | null };
  const cardRefundsOf = (refundId: string) =>
    server.runtime.dataSource.query(
      `SELECT id FROM journal_transactions WHERE kind = 'card_refund' AND reference_id = $1`,
      [refundId],
    );
  const refundPosts = () =>
    fake.requests.filter((request) => request.method === 'POST' && request.path === '/v1/refunds');

  test('the sweep: a refund Stripe applied but whose answer was lost is booked once, asked by listing, never sent again', async () => {
    const merchant = await liveMerchant();
    const payment = await livePayment(merchant);
    fake.dropAfterCommit(2, '/v1/refunds');
    const lost = await refund(merchant, payment.id, { amount: 5 }, { 'idempotency-key': 'refund-swept' });
    expect(lost.status).toBe(503);
    const refundId = await pendingRefundOf(payment.id);
    const [atStripe] = stripeRefundsOf(payment.intent);
    expect(atStripe).toMatchObject({ amount: 500, metadata: { tessera_refund_id: refundId } });
    const posted = refundPosts().length;

    await sweep();
    expect(await refundRow(refundId)).toEqual({ status: 'succeeded', acquirer_reference: atStripe.id });
    expect(await cardRefundsOf(refundId)).toHaveLength(1);
    expect(refundPosts()).toHaveLength(posted);
    expect(
      fake.requests.filter((request) => request.method === 'GET' && request.path === '/v1/refunds').at(-1),
    ).toMatchObject({
      query: { payment_intent: payment.intent },
      status: 200,
    });
    expect(await postings(merchant.businessId)).toMatchObject({ merchant_pending: '2050' });
    // Again: nothing left pending, nothing booked twice.
    expect(await sweep()).toBe(0);
    expect(await cardRefundsOf(refundId)).toHaveLength(1);

    // The merchant's retry of the key after the sweep: the booked refund, with nothing sent to Stripe.
    const retried = await refund(merchant, payment.id, { amount: 5 }, { 'idempotency-key': 'refund-swept' });
    expect(retried.status).toBe(201);
    expect(retried.body.data).toMatchObject({ id: refundId, status: 'succeeded', payment: { amountRefunded: '5.00' } });
    expect(refundPosts()).toHaveLength(posted);
    expect(stripeRefundsOf(payment.intent)).toHaveLength(1);
    await expectLedgerBalanced(server);
  });

  test('the sweep: a refund Stripe never received fails once past the lag, nothing booked, its amount refundable again', async () => {
    const merchant = await liveMerchant();
    const payment = await livePayment(merchant);
    const before = await postings(merchant.businessId);
    fake.failNext(2, 500, '/v1/refunds');
    const lost = await refund(merchant, payment.id, { amount: 5 }, { 'idempotency-key': 'refund-never-sent' });
    expect(lost.status).toBe(503);
    expect(stripeRefundsOf(payment.intent)).toHaveLength(0);
    const [{ id: refundId }] = await server.runtime.dataSource.query(
      `SELECT id FROM refunds WHERE payment_id = $1 AND status = 'pending'`,
      [payment.id],
    );
    // Younger than Stripe's lag: a request still on its way may arrive, so not found is no answer yet.
    await sweep(0);
    expect(await refundRow(refundId)).toEqual({ status: 'pending', acquirer_reference: null });

    await pendingRefundOf(payment.id);
    const posted = refundPosts().length;
    await sweep();
    expect(await refundRow(refundId)).toEqual({ status: 'failed', acquirer_reference: null });
    expect(refundPosts()).toHaveLength(posted);
    expect(await cardRefundsOf(refundId)).toHaveLength(0);
    expect(await postings(merchant.businessId)).toEqual(before);

    // The merchant's retry of the key after the sweep: the recorded failure, nothing sent to Stripe.
    const retried = await refund(merchant, payment.id, { amount: 5 }, { 'idempotency-key': 'refund-never-sent' });
    expect(retried.body.data).toMatchObject({ id: refundId, status: 'failed' });
    expect(refundPosts()).toHaveLength(posted);
    // The amount the pending refund held is refundable again: the whole payment.
    const whole = await refund(merchant, payment.id, {});
    expect(whole.status).toBe(201);
    expect(whole.body.data).toMatchObject({ amount: '25.50', status: 'succeeded', payment: { status: 'REFUNDED' } });
    await expectLedgerBalanced(server);
  });

  test('the sweep: a refund Stripe failed is failed in Tessera, nothing booked', async () => {
    const merchant = await liveMerchant();
    const payment = await livePayment(merchant);
    fake.dropAfterCommit(2, '/v1/refunds');
    expect((await refund(merchant, payment.id, { amount: 5 })).status).toBe(503);
    const refundId = await pendingRefundOf(payment.id);
    const [atStripe] = stripeRefundsOf(payment.intent);
    fake.failRefund(atStripe.id);
    await sweep();
    expect(await refundRow(refundId)).toEqual({ status: 'failed', acquirer_reference: null });
    expect(await cardRefundsOf(refundId)).toHaveLength(0);
    expect(await postings(merchant.businessId)).toMatchObject({ merchant_pending: '2550' });
    await expectLedgerBalanced(server);
  });
});
