import crypto from 'node:crypto';
import Stripe from 'stripe';
import { FakeStripe } from './support/fake-stripe';
import { TestServer, startDeliveringServer, waitFor } from './support/harness';
import { cardForm, page, pathOf } from './support/checkout';
import { CARDS, card, liveChargingMerchant, eventsOf, expectLedgerBalanced } from './support/payments';

/**
 * Issue 29: 3-D Secure through Stripe. A card that asks for it sends the payer to Stripe's page
 * (`next_action.redirect_to_url`), which brings the payer back to Tessera's return route
 * (`/3ds/return/<payment id>` on PUBLIC_BASE_URL); Tessera reads the PaymentIntent and completes
 * the payment. A payer who never comes back is finished by Stripe's signed webhooks.
 */
const WEBHOOK_SECRET = `whsec_${crypto.randomBytes(24).toString('base64url')}`;

describe('3-D Secure through Stripe', () => {
  let fake: FakeStripe;
  let server: TestServer;

  beforeAll(async () => {
    fake = await new FakeStripe().start();
    server = await startDeliveringServer({
      paymentSettlementDelaySeconds: 3600,
      stripe: { secretKey: fake.secretKey, webhookSecret: WEBHOOK_SECRET, apiBase: fake.baseUrl },
    });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  const liveMerchant = () => liveChargingMerchant(server);
  const liveCharge = (merchant: { liveKey: string }, number: string, amount = 25.5) =>
    server.request('POST', '/api/v1/business/payment/charge', {
      headers: { 'x-api-key': merchant.liveKey },
      body: { amount, currency: 'usd', card: card(number), email: 'payer@example.com' },
    });
  const intentOf = (paymentId: string) =>
    fake
      .list('payment_intent')
      .find((intent) => (intent.metadata as Record<string, string>).tessera_payment_id === paymentId)!;
  const paymentRow = async (id: string) =>
    (
      await server.runtime.dataSource.query(
        `SELECT status, three_dsecure, failure_reason, captured_at FROM payments WHERE id = $1`,
        [id],
      )
    )[0];
  const postings = (paymentId: string) =>
    server.runtime.dataSource.query(
      `SELECT a.kind, e.amount::text AS amount FROM journal_entries e JOIN ledger_accounts a ON a.id = e.account_id
         JOIN journal_transactions t ON t.id = e.transaction_id
        WHERE t.reference_type = 'payment' AND t.reference_id = $1 ORDER BY a.kind::text`,
      [paymentId],
    );

  /**
   * A payer's browser on a URL: plain GETs, following redirects; Tessera's own URLs (on
   * PUBLIC_BASE_URL, which is not the test server's address) are asked of the test server.
   */
  const follow = async (url: string, limit = 5) => {
    const seen: string[] = [];
    let target = url;
    for (;;) {
      const onTessera = target.startsWith('/') || target.startsWith(server.runtime.core.config.publicBaseUrl);
      if (!onTessera && !target.startsWith(fake.baseUrl)) return { status: 0, location: target, body: '', seen };
      const response = await page(server, 'GET', onTessera ? pathOf(target) : target);
      seen.push(target);
      if (![301, 302, 303].includes(response.status) || !response.location || seen.length > limit)
        return { ...response, seen };
      target = response.location;
    }
  };

  /** Stripe's event for an intent as it is now, signed with the SDK's own test-header helper and posted. */
  const sendIntentEvent = async (type: string, intentId: string) => {
    const event = {
      id: `evt_${crypto.randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: '2025-11-17.clover',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: fake.object(intentId) },
    };
    const payload = JSON.stringify(event);
    const response = await server.request('POST', '/providers/stripe/webhooks', {
      rawBody: payload,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
    });
    expect(response.status).toBe(200);
    await waitFor(
      () =>
        server.runtime.dataSource.query(`SELECT applied_at, outcome FROM provider_events WHERE event_id = $1`, [
          event.id,
        ]),
      (rows) => rows.length === 1 && rows[0].applied_at !== null,
    );
    return event;
  };

  /** The payer at Stripe's page, as Stripe's test page does it: authenticated, without following its redirect back. */
  const authenticateAtStripe = async (url: string) => {
    const response = await fetch(url, { redirect: 'manual' });
    expect(response.status).toBe(302);
    return response.headers.get('location')!;
  };

  test("server-to-server: REQUIRES_ACTION with Stripe's page as next action; the payer's return completes it, ledger exact", async () => {
    const merchant = await liveMerchant();
    const charged = await liveCharge(merchant, CARDS.threeDs2);
    expect(charged.status).toBe(201);
    const payment = charged.body.data;
    const intent = intentOf(payment.id);
    expect(payment).toMatchObject({
      status: 'REQUIRES_ACTION',
      threeDSecure: 'pending',
      livemode: true,
      nextAction: {
        type: 'three_d_secure',
        complete: `POST /api/v1/business/payments/${payment.id}/3ds/complete`,
        redirectUrl: `${fake.baseUrl}/authenticate/${intent.id}`,
      },
    });
    // GraphQL shows the same next action (the payment as the dashboard reads it).
    const shown = await server.graphql(
      'query($id: ID!) { payment(id: $id) { status nextAction { type redirectUrl } } }',
      { id: payment.id },
      { 'x-api-key': merchant.liveKey },
    );
    expect(shown.body).toEqual({
      data: {
        payment: {
          status: 'REQUIRES_ACTION',
          nextAction: { type: 'three_d_secure', redirectUrl: payment.nextAction.redirectUrl },
        },
      },
    });
    // Stripe was told where the payer comes back: Tessera's return route for this payment.
    expect(intent.return_url).toBe(`${server.runtime.core.config.publicBaseUrl}/3ds/return/${payment.id}`);

    const outcome = await follow(payment.nextAction.redirectUrl);
    expect(outcome.seen[1]).toContain(`/3ds/return/${payment.id}?payment_intent=${intent.id}`);
    expect(outcome.status).toBe(200);
    expect(outcome.body).toContain('Your payment is confirmed');

    expect(await paymentRow(payment.id)).toMatchObject({ status: 'COMPLETED', three_dsecure: 'succeeded' });
    const read = await server.request('GET', `/api/v1/business/payments/${payment.id}`, {
      headers: { 'x-api-key': merchant.liveKey },
    });
    expect(read.body.data).toMatchObject({ status: 'COMPLETED', threeDSecure: 'succeeded', nextAction: null });
    const after = await server.graphql(
      'query($id: ID!) { payment(id: $id) { status nextAction { type } } }',
      { id: payment.id },
      { 'x-api-key': merchant.liveKey },
    );
    expect(after.body.data.payment).toEqual({ status: 'COMPLETED', nextAction: null });
    expect(await postings(payment.id)).toEqual([
      { kind: 'merchant_pending', amount: '2550' },
      { kind: 'provider_clearing', amount: '-2550' },
    ]);
    // Coming back a second time shows the outcome and changes nothing.
    const again = await follow(outcome.seen[1]);
    expect(again.status).toBe(200);
    expect(await postings(payment.id)).toHaveLength(2);
    const completed = (await eventsOf(server, merchant.businessId)).filter(
      (event) => event.data.paymentId === payment.id && event.type === 'payment.completed',
    );
    expect(completed).toHaveLength(1);
    await expectLedgerBalanced(server);
  });

  test('a live hosted checkout session: the 3-D Secure step sends the payer to Stripe and back to the success URL', async () => {
    const merchant = await liveMerchant();
    const created = await server.request('POST', '/api/v1/business/checkout/session', {
      headers: { 'x-api-key': merchant.liveKey },
      body: {
        amount: 40,
        currency: 'usd',
        customerEmail: 'payer@example.com',
        successUrl: 'https://shop.example.com/thanks',
      },
    });
    expect(created.status).toBe(201);
    const session = created.body.data;
    const token = pathOf(session.checkoutUrl).split('/').pop()!;

    const submit = await page(server, 'POST', pathOf(session.checkoutUrl), cardForm('4000000000003220'));
    expect(submit.status).toBe(303);
    expect(submit.location).toBe(`/checkout/3ds/${token}`);
    const step = await page(server, 'GET', submit.location!);
    expect(step.status).toBe(200);
    const [, stripePage] = /<a href="([^"]+)" id="authenticate">/.exec(step.body) ?? [];
    expect(stripePage).toMatch(new RegExp(`^${fake.baseUrl}/authenticate/pi_`));
    // The sandbox's Continue (a POST of the step) does not finish a payment waiting at Stripe.
    expect((await page(server, 'POST', `/checkout/3ds/${token}`)).body).toContain('id="authenticate"');

    const back = await follow(stripePage);
    // Stripe's page, then Tessera's return, which sends the payer on to the merchant's success URL.
    expect(back.seen).toEqual([stripePage, expect.stringContaining('/3ds/return/')]);
    expect(back.location).toBe(`https://shop.example.com/thanks?session_id=${session.id}`);
    const read = await server.request('GET', `/api/v1/business/checkout/sessions/${session.id}`, {
      headers: { 'x-api-key': merchant.liveKey },
    });
    expect(read.body.data.status).toBe('COMPLETED');
    const [payment] = await server.runtime.dataSource.query(
      `SELECT id, status, livemode FROM payments WHERE source_id = $1`,
      [session.id],
    );
    expect(payment).toMatchObject({ status: 'COMPLETED', livemode: true });
    expect(await postings(payment.id)).toEqual([
      { kind: 'merchant_pending', amount: '4000' },
      { kind: 'provider_clearing', amount: '-4000' },
    ]);
    await expectLedgerBalanced(server);
  });

  test('a payer who never comes back: a signed payment_intent.succeeded completes the payment once', async () => {
    const merchant = await liveMerchant();
    const payment = (await liveCharge(merchant, CARDS.threeDs2)).body.data;
    const intent = intentOf(payment.id);
    // The payer authenticates at Stripe, and closes the window before the redirect back.
    await authenticateAtStripe(payment.nextAction.redirectUrl);
    expect((await paymentRow(payment.id)).status).toBe('REQUIRES_ACTION');

    await sendIntentEvent('payment_intent.succeeded', intent.id);
    expect(await paymentRow(payment.id)).toMatchObject({ status: 'COMPLETED', three_dsecure: 'succeeded' });
    expect(await postings(payment.id)).toHaveLength(2);

    // The same outcome again (a new event, and the payer's late return) changes nothing.
    await sendIntentEvent('payment_intent.succeeded', intent.id);
    const late = await follow(`/3ds/return/${payment.id}?payment_intent=${intent.id}`);
    expect(late.status).toBe(200);
    expect(await postings(payment.id)).toHaveLength(2);
    const completed = (await eventsOf(server, merchant.businessId)).filter(
      (event) => event.data.paymentId === payment.id && event.type === 'payment.completed',
    );
    expect(completed).toHaveLength(1);
    await expectLedgerBalanced(server);
  });

  test('payment_intent.payment_failed fails a payment left waiting: authentication_failed, nothing posted', async () => {
    const merchant = await liveMerchant();
    const payment = (await liveCharge(merchant, CARDS.threeDs2)).body.data;
    const intent = intentOf(payment.id);
    // Stripe's view of an intent whose authentication failed (the payer abandoned the challenge).
    const failed = {
      ...intent,
      status: 'requires_payment_method',
      next_action: null,
      last_payment_error: {
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message: 'The provided PaymentMethod has failed authentication.',
      },
    };
    const event = {
      id: `evt_${crypto.randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: '2025-11-17.clover',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: 'payment_intent.payment_failed',
      data: { object: failed },
    };
    const payload = JSON.stringify(event);
    const response = await server.request('POST', '/providers/stripe/webhooks', {
      rawBody: payload,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
    });
    expect(response.status).toBe(200);
    const row = await waitFor(
      () => paymentRow(payment.id),
      (found) => found.status !== 'REQUIRES_ACTION',
    );
    expect(row).toMatchObject({ status: 'FAILED', failure_reason: 'authentication_failed', three_dsecure: 'failed' });
    expect(await postings(payment.id)).toEqual([]);
    const failedEvents = (await eventsOf(server, merchant.businessId)).filter(
      (found) => found.data.paymentId === payment.id && found.type === 'payment.failed',
    );
    expect(failedEvents).toHaveLength(1);
  });

  test("a return with another payment's payment_intent is refused, and the payment keeps waiting", async () => {
    const merchant = await liveMerchant();
    const mine = (await liveCharge(merchant, CARDS.threeDs2)).body.data;
    const other = (await liveCharge(merchant, CARDS.threeDs2, 30)).body.data;
    expect(other.id).not.toBe(mine.id);
    const otherIntent = intentOf(other.id);
    await authenticateAtStripe(other.nextAction.redirectUrl);

    const forged = await page(server, 'GET', `/3ds/return/${mine.id}?payment_intent=${otherIntent.id}`);
    expect(forged.status).toBe(400);
    expect((await paymentRow(mine.id)).status).toBe('REQUIRES_ACTION');
    const bare = await page(server, 'GET', `/3ds/return/${mine.id}`);
    expect(bare.status).toBe(400);
    expect((await paymentRow(mine.id)).status).toBe('REQUIRES_ACTION');
    // A payment that was never sent to an acquirer's page has no return: 404.
    const sandbox = await server.request('POST', '/api/v1/business/payment/charge', {
      headers: { 'x-api-key': merchant.apiKey },
      body: { amount: 10, currency: 'usd', card: card(CARDS.threeDs2), email: 'payer@example.com' },
    });
    expect(sandbox.body.data).toMatchObject({ status: 'REQUIRES_ACTION', nextAction: { redirectUrl: null } });
    expect((await page(server, 'GET', `/3ds/return/${sandbox.body.data.id}`)).status).toBe(404);
    expect((await page(server, 'GET', `/3ds/return/not-a-payment`)).status).toBe(404);
  });
});
