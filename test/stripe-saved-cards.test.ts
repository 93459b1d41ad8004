import { RequestContext } from '../src/domain/shared/context';
import { Mode } from '../src/domain/shared/modes';
import { PaymentMethod, vaultedCardOf } from '../src/domain/customers';
import { PaymentSource } from '../src/domain/payments';
import { FakeStripe } from './support/fake-stripe';
import { TestMerchant, TestServer, startTestServer } from './support/harness';
import { CARDS, card, liveChargingMerchant } from './support/payments';
import { cardForm, page, pathOf } from './support/checkout';

/**
 * Issue 29, saved cards and tokens: a saved card is a Stripe PaymentMethod attached to the Stripe
 * Customer of its Tessera customer (made on the first save), and a charge of it names that
 * customer and is off-session. A real Tessera server with STRIPE_* pointed at the local fake.
 */
describe('saved cards and card tokens through Stripe', () => {
  let fake: FakeStripe;
  let server: TestServer;

  beforeAll(async () => {
    fake = await new FakeStripe().start();
    server = await startTestServer({
      paymentSettlementDelaySeconds: 3600,
      sandbox3dsAutoCompleteMs: 3_600_000,
      stripe: { secretKey: fake.secretKey, webhookSecret: 'whsec_test_fake', apiBase: fake.baseUrl },
    });
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  type Merchant = TestMerchant & { liveKey: string };

  const liveMerchant = () => liveChargingMerchant(server);
  /** The merchant's key of a mode: the live key, or the sandbox's. */
  const keyOf = (merchant: Merchant, live: boolean) => (live ? merchant.liveKey : merchant.apiKey);
  const call = (merchant: Merchant, live: boolean, method: 'POST' | 'GET', path: string, body?: unknown) =>
    server.request(method, path, { headers: { 'x-api-key': keyOf(merchant, live) }, body });
  const newCustomer = async (merchant: Merchant, live = true): Promise<string> => {
    const created = await call(merchant, live, 'POST', '/api/v1/business/customers', {
      email: `payer-${Math.random().toString(36).slice(2)}@example.com`,
    });
    expect(created.status).toBe(201);
    return created.body.data.customerId;
  };
  const saveCard = async (merchant: Merchant, customerId: string, source: unknown, live = true) => {
    const saved = await call(
      merchant,
      live,
      'POST',
      `/api/v1/business/customers/${customerId}/payment-methods`,
      source,
    );
    expect(saved.status).toBe(201);
    return saved.body.data.id as string;
  };
  let amount = 10;
  /** A charge of a saved card; each of another amount, so that none is the 60 s repeat of another. */
  const chargeSaved = (merchant: Merchant, paymentMethodId: string, live = true) =>
    call(merchant, live, 'POST', '/api/v1/business/payment/charge', {
      amount: (amount += 1),
      currency: 'usd',
      paymentMethodId,
    });
  const publishableKeyOf = async (merchant: Merchant, mode: 'LIVE' | 'TEST'): Promise<string> => {
    const response = await server.graphql(
      '{ apiCredentials { mode publishableKey } }',
      {},
      { authorization: `Bearer ${merchant.token}` },
    );
    return response.body.data.apiCredentials.find((credential: { mode: string }) => credential.mode === mode)
      .publishableKey;
  };
  const tokenOf = async (publishableKey: string, number: string): Promise<string> => {
    const response = await server.request('POST', '/api/v1/tokens', {
      body: { card: card(number) },
      headers: { 'x-publishable-key': publishableKey },
    });
    expect(response.status).toBe(201);
    return response.body.data.id;
  };
  /** The Stripe Customers made for a Tessera customer. */
  const stripeCustomersOf = (customerId: string) =>
    fake
      .list('customer')
      .filter((customer) => (customer.metadata as Record<string, string>).tessera_customer_id === customerId);
  const refOf = async (customerId: string): Promise<string | null> =>
    (
      await server.runtime.dataSource.query(`SELECT acquirer_customer_ref FROM customers WHERE id = $1`, [customerId])
    )[0].acquirer_customer_ref;
  const methodRow = async (paymentMethodId: string): Promise<PaymentMethod> =>
    server.runtime.dataSource.getRepository(PaymentMethod).findOneByOrFail({ id: paymentMethodId });
  /** The PaymentIntent request of a Tessera payment, as Stripe received it first. */
  const intentRequestOf = (paymentId: string) =>
    fake.requests.find((request) => request.path === '/v1/payment_intents' && request.idempotencyKey === paymentId);

  test('a saved card: one Stripe Customer for the customer, its PaymentMethod attached, charged twice off-session', async () => {
    const merchant = await liveMerchant();
    const customerId = await newCustomer(merchant);
    const first = await saveCard(merchant, customerId, { card: card(CARDS.success) });

    const [stripeCustomer] = stripeCustomersOf(customerId);
    expect(stripeCustomersOf(customerId)).toHaveLength(1);
    expect(await refOf(customerId)).toBe(stripeCustomer.id);
    const method = await methodRow(first);
    const pm = method.providerRef.split('/')[1];
    expect(method.providerRef).toBe(`${stripeCustomer.id}/${pm}`);
    expect(fake.object(pm)).toMatchObject({ object: 'payment_method', customer: stripeCustomer.id });
    const created = fake.requests.filter(
      (request) => request.path === '/v1/customers' && request.status === 200 && !request.replayed,
    );
    expect(created.filter((request) => request.idempotencyKey === `tessera-customer-${customerId}`)).toHaveLength(1);

    // Charged twice: Stripe refuses a PaymentMethod used twice unless it is its Customer's.
    const payments: string[] = [];
    for (let i = 0; i < 2; i++) {
      const charged = await chargeSaved(merchant, first);
      expect(charged.status).toBe(201);
      expect(charged.body.data).toMatchObject({ status: 'COMPLETED', livemode: true });
      payments.push(charged.body.data.id);
    }
    expect(new Set(payments).size).toBe(2);
    for (const paymentId of payments) {
      expect(intentRequestOf(paymentId)?.body).toMatchObject({
        customer: stripeCustomer.id,
        payment_method: pm,
        off_session: 'true',
      });
    }
    const intents = fake
      .list('payment_intent')
      .filter((intent) => payments.includes((intent.metadata as Record<string, string>).tessera_payment_id));
    expect(intents.map((intent) => [intent.status, intent.customer])).toEqual([
      ['succeeded', stripeCustomer.id],
      ['succeeded', stripeCustomer.id],
    ]);

    // A second card of the same customer: the same Stripe Customer, no second one.
    const second = await saveCard(merchant, customerId, { card: card('5555555555554444') });
    expect(stripeCustomersOf(customerId)).toHaveLength(1);
    const secondPm = (await methodRow(second)).providerRef.split('/')[1];
    expect(fake.object(secondPm)).toMatchObject({ customer: stripeCustomer.id });
    expect((await chargeSaved(merchant, second)).body.data.status).toBe('COMPLETED');

    // Another Tessera customer has its own Stripe Customer.
    const other = await newCustomer(merchant);
    await saveCard(merchant, other, { card: card(CARDS.success) });
    expect(stripeCustomersOf(other)).toEqual([expect.objectContaining({ id: await refOf(other) })]);
    expect(await refOf(other)).not.toBe(stripeCustomer.id);
  });

  test("the first save's answer lost: the SDK's retry, on the customer's key, makes no second Stripe Customer", async () => {
    const merchant = await liveMerchant();
    const customerId = await newCustomer(merchant);
    fake.dropAfterCommit(1, '/v1/customers');
    await saveCard(merchant, customerId, { card: card(CARDS.success) });
    const tries = fake.requests.filter(
      (request) => request.path === '/v1/customers' && request.idempotencyKey === `tessera-customer-${customerId}`,
    );
    expect(tries.map((request) => request.replayed)).toEqual([false, true]);
    expect(stripeCustomersOf(customerId)).toHaveLength(1);
    expect(await refOf(customerId)).toBe(stripeCustomersOf(customerId)[0].id);
  });

  test('a charge of a saved card with the payer absent (the recurring gift path) is off-session', async () => {
    const merchant = await liveMerchant();
    const customerId = await newCustomer(merchant);
    const saved = await methodRow(await saveCard(merchant, customerId, { card: card(CARDS.success) }));
    // A recurring gift charges its saved card as this command (src/domain/recurring-gifts: chargeCard).
    const system = RequestContext.system(server.runtime.dataSource, 'recurring-gifts', merchant.businessId, Mode.LIVE);
    const payment = await server.runtime.core.payments.charge(system, {
      amount: 700n,
      currency: 'USD',
      email: 'payer@example.com',
      card: { kind: 'vaulted', vaulted: vaultedCardOf(saved), paymentMethodId: saved.id, customerId },
      origin: { source: PaymentSource.RECURRING_GIFT, sourceId: customerId },
    });
    expect(payment.status).toBe('COMPLETED');
    expect(intentRequestOf(payment.id)?.body).toMatchObject({
      customer: await refOf(customerId),
      off_session: 'true',
      amount: '700',
    });
  });

  test('a 3-D Secure card saved, then charged off-session: FAILED authentication_failed, as in the sandbox', async () => {
    const merchant = await liveMerchant();
    const outcomes: Array<{ status: string; failureReason: string | null }> = [];
    for (const live of [true, false]) {
      const customerId = await newCustomer(merchant, live);
      const method = await saveCard(merchant, customerId, { card: card(CARDS.threeDsFailure) }, live);
      const charged = await chargeSaved(merchant, method, live);
      expect(charged.status).toBe(201);
      let payment = charged.body.data;
      if (!live) {
        // The sandbox challenges, and its challenge of this card fails (completed here at once).
        expect(payment.status).toBe('REQUIRES_ACTION');
        const completed = await call(merchant, false, 'POST', `/api/v1/business/payments/${payment.id}/3ds/complete`);
        payment = completed.body.data;
      } else {
        expect(intentRequestOf(payment.id)?.body).toMatchObject({ off_session: 'true' });
      }
      outcomes.push({ status: payment.status, failureReason: payment.failureReason });
    }
    expect(outcomes[0]).toEqual({ status: 'FAILED', failureReason: 'authentication_failed' });
    expect(outcomes[0]).toEqual(outcomes[1]);
  });

  test('card tokens: a token charged once as it is; a token exchanged for a saved card is attached, and charged twice', async () => {
    const merchant = await liveMerchant();
    const publishableKey = await publishableKeyOf(merchant, 'LIVE');

    const once = await tokenOf(publishableKey, CARDS.success);
    const charged = await call(merchant, true, 'POST', '/api/v1/business/payment/charge', {
      amount: 9,
      currency: 'usd',
      token: once,
      email: 'payer@example.com',
    });
    expect(charged.status).toBe(201);
    expect(charged.body.data).toMatchObject({ status: 'COMPLETED', livemode: true });
    const onceRequest = intentRequestOf(charged.body.data.id)!;
    expect(onceRequest.body).not.toHaveProperty('customer');
    expect(onceRequest.body).not.toHaveProperty('off_session');

    const customerId = await newCustomer(merchant);
    const token = await tokenOf(publishableKey, CARDS.success);
    const method = await saveCard(merchant, customerId, { token });
    const ref = await refOf(customerId);
    expect(stripeCustomersOf(customerId)).toHaveLength(1);
    const pm = (await methodRow(method)).providerRef.split('/')[1];
    expect(fake.object(pm)).toMatchObject({ customer: ref });
    for (let i = 0; i < 2; i++) expect((await chargeSaved(merchant, method)).body.data.status).toBe('COMPLETED');

    // The token was used by the exchange: neither a second save nor a charge takes it again.
    const again = await call(merchant, true, 'POST', `/api/v1/business/customers/${customerId}/payment-methods`, {
      token,
    });
    expect(again.status).toBe(400);
    expect(again.body.error.errors.token[0]).toContain('already been used');
  });

  test('a card saved in test mode stays with the sandbox: no Stripe Customer, no request to Stripe', async () => {
    const merchant = await liveMerchant();
    const before = fake.requests.length;
    const customerId = await newCustomer(merchant, false);
    const method = await saveCard(merchant, customerId, { card: card(CARDS.success) }, false);
    expect((await chargeSaved(merchant, method, false)).body.data.status).toBe('COMPLETED');
    expect(await refOf(customerId)).toBeNull();
    expect((await methodRow(method)).providerRef).toMatch(/^sbx_success_/);
    expect(fake.requests.length).toBe(before);
  });

  test('a recurring gift started from a live checkout session: the first charge keeps the card, the next is off-session', async () => {
    const merchant = await liveMerchant();
    const email = `donor-${Math.random().toString(36).slice(2)}@example.com`;
    const link = await call(merchant, true, 'POST', '/api/v1/business/payment-links', {
      name: 'Monthly gift',
      amount: '12',
      currency: 'usd',
      allowRecurring: true,
      recurringInterval: 'monthly',
    });
    expect(link.status).toBe(201);
    const visit = await page(server, 'GET', pathOf(link.body.data.url));
    const form = await page(server, 'GET', pathOf(visit.location!));
    expect(form.body).toContain('name="recurring"');
    const paid = await page(
      server,
      'POST',
      pathOf(visit.location!),
      cardForm(CARDS.success, { email, recurring: 'on' }),
    );
    expect(paid.status).toBe(303);
    const gifts = await call(
      merchant,
      true,
      'GET',
      `/api/v1/business/recurring-gifts?paymentLinkId=${link.body.data.id}`,
    );
    expect(gifts.body.data.total).toBe(1);
    const gift = gifts.body.data.items[0];

    // The session's charge made the donor's Stripe Customer and set the card up for it.
    const [stripeCustomer, ...others] = stripeCustomersOf(gift.customerId);
    expect(others).toEqual([]);
    expect(stripeCustomer).toMatchObject({ email });
    expect(await refOf(gift.customerId)).toBe(stripeCustomer.id);
    const first = intentRequestOf(gift.lastPaymentId)!;
    expect(first.body).toMatchObject({
      customer: stripeCustomer.id,
      setup_future_usage: 'off_session',
      amount: '1200',
    });
    expect(first.body.off_session).toBeUndefined();
    const pm = first.body.payment_method as string;
    expect(fake.list('payment_method').find((method) => method.id === pm)?.customer).toBe(stripeCustomer.id);
    expect((await methodRow(gift.paymentMethodId)).providerRef).toBe(`${stripeCustomer.id}/${pm}`);

    // The gift's next charge, when due (as its job runs it): the same Customer and PaymentMethod, off-session.
    await server.runtime.dataSource.query(`UPDATE recurring_gifts SET next_charge_at = now() WHERE id = $1`, [gift.id]);
    const system = RequestContext.system(server.runtime.dataSource, 'recurring-gifts', merchant.businessId, Mode.LIVE);
    await server.runtime.core.recurringGifts.chargeDue(system, gift.id);
    const charged = (await call(merchant, true, 'GET', `/api/v1/business/recurring-gifts/${gift.id}`)).body.data;
    expect(charged).toMatchObject({ chargeCount: 1, failureCount: 0, status: 'ACTIVE' });
    expect(charged.lastPaymentId).not.toBe(gift.lastPaymentId);
    const next = await call(merchant, true, 'GET', `/api/v1/business/payments/${charged.lastPaymentId}`);
    expect(next.body.data).toMatchObject({ status: 'COMPLETED' });
    expect(intentRequestOf(charged.lastPaymentId)?.body).toMatchObject({
      customer: stripeCustomer.id,
      payment_method: pm,
      off_session: 'true',
      amount: '1200',
    });
    expect(intentRequestOf(charged.lastPaymentId)?.body.setup_future_usage).toBeUndefined();
    const intents = fake.list('payment_intent').filter((intent) => intent.payment_method === pm);
    expect(intents.map((intent) => intent.status)).toEqual(['succeeded', 'succeeded']);
  });

  test('a recurring gift started from a live checkout session with 3-D Secure: the completion repeats the same request, and the card is kept', async () => {
    const merchant = await liveMerchant();
    const email = `secure-${Math.random().toString(36).slice(2)}@example.com`;
    const link = await call(merchant, true, 'POST', '/api/v1/business/payment-links', {
      name: 'Weekly gift',
      amount: '9',
      currency: 'usd',
      allowRecurring: true,
      recurringInterval: 'weekly',
    });
    const visit = await page(server, 'GET', pathOf(link.body.data.url));
    const submit = await page(
      server,
      'POST',
      pathOf(visit.location!),
      cardForm('4000000000003220', { email, recurring: 'on' }),
    );
    expect(submit.location).toMatch(/^\/checkout\/3ds\//);
    const step = await page(server, 'GET', submit.location!);
    const [, stripePage] = /<a href="([^"]+)" id="authenticate">/.exec(step.body) ?? [];
    expect(stripePage).toMatch(new RegExp(`^${fake.baseUrl}/authenticate/pi_`));
    const returned = await page(server, 'GET', stripePage);
    const back = await page(server, 'GET', pathOf(returned.location!));
    expect(back.status).toBe(303);
    // A link's session has no success URL: the payer lands on its completed page.
    expect(back.location).toMatch(/^\/checkout\/cs_live_[^/]+\/complete$/);

    const gifts = await call(
      merchant,
      true,
      'GET',
      `/api/v1/business/recurring-gifts?paymentLinkId=${link.body.data.id}`,
    );
    expect(gifts.body.data.total).toBe(1);
    const gift = gifts.body.data.items[0];
    const [stripeCustomer] = stripeCustomersOf(gift.customerId);
    const payment = await call(merchant, true, 'GET', `/api/v1/business/payments/${gift.lastPaymentId}`);
    expect(payment.body.data).toMatchObject({ status: 'COMPLETED' });
    // The completion asked for the intent again under the payment's key: the same body, replayed.
    const asked = fake.requests.filter(
      (request) => request.path === '/v1/payment_intents' && request.idempotencyKey === gift.lastPaymentId,
    );
    expect(asked.length).toBeGreaterThanOrEqual(2);
    for (const request of asked)
      expect(request.body).toMatchObject({ customer: stripeCustomer.id, setup_future_usage: 'off_session' });
    const pm = asked[0].body.payment_method as string;
    expect(fake.list('payment_method').find((method) => method.id === pm)?.customer).toBe(stripeCustomer.id);
    expect((await methodRow(gift.paymentMethodId)).providerRef).toBe(`${stripeCustomer.id}/${pm}`);
  });

  test('no card number reaches Stripe after the PaymentMethod is made', () => {
    const numbers = Object.values(CARDS)
      .map((number) => number.replace(/\s/g, ''))
      .concat('5555555555554444');
    const carrying = fake.requests.filter((request) =>
      numbers.some((number) => JSON.stringify([request.body, request.query]).includes(number)),
    );
    expect(carrying.length).toBeGreaterThan(0);
    expect(new Set(carrying.map((request) => `${request.method} ${request.path}`))).toEqual(
      new Set(['POST /v1/payment_methods']),
    );
  });
});
