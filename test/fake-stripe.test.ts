import Stripe from 'stripe';
import { FakeStripe } from './support/fake-stripe';
import { Receiver } from './support/receiver';
import { waitFor, waitUntil } from './support/wait';

/**
 * The local fake of Stripe's API, driven only through Stripe's official SDK: what the SDK sends
 * and expects (paths, form bodies, headers, objects, error classes) is what the fake speaks, so
 * tests of Tessera's Stripe acquirer run against the same wire protocol as Stripe's own.
 */
describe('fake Stripe, through the official SDK', () => {
  let fake: FakeStripe;
  let stripe: Stripe;
  const sdk = (options: Partial<Stripe.StripeConfig> = {}) =>
    new Stripe(fake.secretKey, { ...fake.sdkConfig, maxNetworkRetries: 0, ...options });

  beforeAll(async () => {
    fake = await new FakeStripe().start();
    stripe = sdk();
  });
  afterAll(async () => fake.close());

  const cardOf = (number: string) => ({ number, exp_month: 12, exp_year: new Date().getFullYear() + 3, cvc: '123' });
  const paymentMethod = (number: string) => stripe.paymentMethods.create({ type: 'card', card: cardOf(number) });
  const charge = async (number: string, params: Partial<Stripe.PaymentIntentCreateParams> = {}, key?: string) =>
    stripe.paymentIntents.create(
      {
        amount: 2550,
        currency: 'usd',
        payment_method: (await paymentMethod(number)).id,
        confirm: true,
        metadata: { tessera_payment_id: `pay_${Math.random().toString(36).slice(2)}` },
        ...params,
      },
      key ? { idempotencyKey: key } : undefined,
    );
  const failureOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (failure) {
      return failure as Stripe.errors.StripeError;
    }
    throw new Error('expected the call to fail');
  };

  test('a request with another secret key is refused with 401 and Stripe authentication error', async () => {
    const failure = await failureOf(
      new Stripe('sk_test_not_this_one', { ...fake.sdkConfig, maxNetworkRetries: 0 }).customers.create({}),
    );
    expect(failure).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(failure.statusCode).toBe(401);
    expect(failure.message).toMatch(/^Invalid API Key provided: sk_test_\**_one$/);
  });

  test('bodies are read in bracket notation: card[number], metadata[…], expand[]', async () => {
    const method = await stripe.paymentMethods.create({
      type: 'card',
      card: cardOf('4242424242424242'),
      metadata: { tessera_customer: 'cust_1' },
    });
    const logged = fake.requests.find((request) => request.path === '/v1/payment_methods' && request.status === 200);
    expect(logged?.body).toMatchObject({ type: 'card', card: { number: '4242424242424242', cvc: '123' } });
    expect(method).toMatchObject({
      id: expect.stringMatching(/^pm_/),
      object: 'payment_method',
      type: 'card',
      metadata: { tessera_customer: 'cust_1' },
      card: { brand: 'visa', last4: '4242', exp_month: 12, country: 'US', fingerprint: expect.any(String) },
    });
    const intent = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      payment_method: method.id,
      confirm: true,
      expand: ['latest_charge.balance_transaction'],
    });
    const latest = intent.latest_charge as Stripe.Charge;
    expect(latest).toMatchObject({ object: 'charge', status: 'succeeded', payment_intent: intent.id });
    expect(latest.balance_transaction).toMatchObject({ object: 'balance_transaction', type: 'charge', amount: 1000 });
  });

  test('the same card has the same fingerprint, and the country comes from the test card', async () => {
    const [first, second, british] = await Promise.all([
      paymentMethod('4000000000000002'),
      paymentMethod('4000000000000002'),
      paymentMethod('4000008260003178'),
    ]);
    expect(first.card!.fingerprint).toBe(second.card!.fingerprint);
    expect(first.card!.fingerprint).not.toBe(british.card!.fingerprint);
    expect(british.card!.country).toBe('GB');
  });

  test('a card number that fails the Luhn check is a 402 card error, incorrect_number', async () => {
    const failure = await failureOf(paymentMethod('4242424242424241'));
    expect(failure).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(failure).toMatchObject({ statusCode: 402, code: 'incorrect_number', param: 'number' });
  });

  test('4242 4242 4242 4242 succeeds: the intent, its charge and a charge balance transaction with Stripe fees', async () => {
    const intent = await charge('4242424242424242');
    expect(intent).toMatchObject({
      id: expect.stringMatching(/^pi_/),
      object: 'payment_intent',
      status: 'succeeded',
      amount: 2550,
      amount_received: 2550,
      currency: 'usd',
      capture_method: 'automatic',
      latest_charge: expect.stringMatching(/^ch_/),
    });
    const latest = await stripe.charges.retrieve(intent.latest_charge as string);
    const transaction = await stripe.balanceTransactions.retrieve(latest.balance_transaction as string);
    expect(transaction).toMatchObject({
      id: expect.stringMatching(/^txn_/),
      type: 'charge',
      source: latest.id,
      amount: 2550,
      fee: 104,
      net: 2446,
      fee_details: [{ amount: 104, currency: 'usd', type: 'stripe_fee' }],
    });
  });

  test.each([
    ['4000000000000002', 'generic_decline', 'Your card was declined.'],
    ['4000000000009995', 'insufficient_funds', 'Your card has insufficient funds.'],
  ])(
    '%s is declined: 402 card_error, card_declined / %s, and the intent back to requires_payment_method',
    async (number, declineCode, message) => {
      const failure = await failureOf(charge(number));
      expect(failure).toBeInstanceOf(Stripe.errors.StripeCardError);
      expect(failure).toMatchObject({
        statusCode: 402,
        type: 'StripeCardError',
        code: 'card_declined',
        decline_code: declineCode,
        message,
      });
      const intentId = failure.payment_intent!.id;
      expect(failure.payment_intent).toMatchObject({ status: 'requires_payment_method' });
      const intent = await stripe.paymentIntents.retrieve(intentId);
      expect(intent.status).toBe('requires_payment_method');
      expect(intent.last_payment_error).toMatchObject({
        type: 'card_error',
        code: 'card_declined',
        decline_code: declineCode,
      });
      const failed = await stripe.charges.retrieve(intent.latest_charge as string);
      expect(failed).toMatchObject({ status: 'failed', balance_transaction: null, failure_code: 'card_declined' });
    },
  );

  test.each(['4000002500003155', '4000000000003220'])(
    '%s requires 3-D Secure: redirect_to_url a page that completes authentication and redirects to return_url',
    async (number) => {
      const intent = await charge(number, { return_url: 'https://shop.example/back?order=7' });
      expect(intent.status).toBe('requires_action');
      expect(intent.next_action).toEqual({
        type: 'redirect_to_url',
        redirect_to_url: {
          url: expect.stringContaining(fake.baseUrl),
          return_url: 'https://shop.example/back?order=7',
        },
      });
      const page = await fetch(intent.next_action!.redirect_to_url!.url!, { redirect: 'manual' });
      expect(page.status).toBe(302);
      const back = new URL(page.headers.get('location')!);
      expect(back.origin + back.pathname).toBe('https://shop.example/back');
      expect(back.searchParams.get('order')).toBe('7');
      expect(back.searchParams.get('payment_intent')).toBe(intent.id);
      expect(back.searchParams.get('redirect_status')).toBe('succeeded');
      expect(await stripe.paymentIntents.retrieve(intent.id)).toMatchObject({ status: 'succeeded', next_action: null });
    },
  );

  test('4000 0082 6000 3178 requires 3-D Secure, and once authenticated is declined for insufficient funds', async () => {
    const intent = await charge('4000008260003178', { return_url: 'https://shop.example/back' });
    expect(intent.status).toBe('requires_action');
    const page = await fetch(intent.next_action!.redirect_to_url!.url!, { redirect: 'manual' });
    expect(new URL(page.headers.get('location')!).searchParams.get('redirect_status')).toBe('failed');
    const after = await stripe.paymentIntents.retrieve(intent.id);
    expect(after.status).toBe('requires_payment_method');
    expect(after.last_payment_error).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'insufficient_funds',
    });
    const failed = await stripe.charges.retrieve(after.latest_charge as string);
    expect(failed).toMatchObject({ status: 'failed', balance_transaction: null, failure_code: 'card_declined' });
  });

  test("the authentication page's Fail button (?outcome=fail): payment_intent_authentication_failure, nothing charged", async () => {
    const intent = await charge('4000000000003220', { return_url: 'https://shop.example/back' });
    const page = await fetch(`${intent.next_action!.redirect_to_url!.url!}?outcome=fail`, { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(new URL(page.headers.get('location')!).searchParams.get('redirect_status')).toBe('failed');
    const after = await stripe.paymentIntents.retrieve(intent.id);
    expect(after.status).toBe('requires_payment_method');
    expect(after.last_payment_error).toMatchObject({ code: 'payment_intent_authentication_failure' });
    expect(after.latest_charge).toBeNull();
  });

  test('a 3-D Secure card confirmed off-session is declined with authentication_required', async () => {
    const failure = await failureOf(charge('4000000000003220', { off_session: true }));
    expect(failure).toMatchObject({ statusCode: 402, code: 'authentication_required' });
  });

  test('amounts are taken as given in minor units: 5000 JPY is ¥5,000, with no fixed part in the fee', async () => {
    const intent = await charge('4242424242424242', { amount: 5000, currency: 'jpy' }, undefined);
    const latest = await stripe.charges.retrieve(intent.latest_charge as string, { expand: ['balance_transaction'] });
    expect(latest.balance_transaction).toMatchObject({ amount: 5000, currency: 'jpy', fee: 145, net: 4855 });
  });

  test('an amount under Stripe minimum charge is refused: 400 amount_too_small', async () => {
    const failure = await failureOf(charge('4242424242424242', { amount: 49 }));
    expect(failure).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(failure).toMatchObject({ statusCode: 400, code: 'amount_too_small', param: 'amount' });
  });

  test('an unknown id is a 404 resource_missing', async () => {
    const failure = await failureOf(stripe.paymentIntents.retrieve('pi_nothing'));
    expect(failure).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(failure).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id' });
  });

  describe('idempotent requests', () => {
    test('the same key and body replay the first answer, marked Idempotent-Replayed, and charge once', async () => {
      const method = await paymentMethod('4242424242424242');
      const params = {
        amount: 700,
        currency: 'usd',
        payment_method: method.id,
        confirm: true,
        metadata: { tessera_payment_id: 'pay_replayed' },
      };
      const first = await stripe.paymentIntents.create(params, { idempotencyKey: 'pay_replayed' });
      const second = await stripe.paymentIntents.create(params, { idempotencyKey: 'pay_replayed' });
      expect(second).toEqual(first);
      expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
      expect(first.lastResponse.headers['idempotent-replayed']).toBeUndefined();
      expect(second.lastResponse.requestId).toBe(first.lastResponse.requestId);
      expect(fake.list('payment_intent').filter((intent) => intent.id === first.id)).toHaveLength(1);
      expect(fake.list('charge').filter((item) => item.payment_intent === first.id)).toHaveLength(1);
    });

    test('a declined answer is replayed too, as the same 402', async () => {
      const method = await paymentMethod('4000000000000002');
      const params = { amount: 900, currency: 'usd', payment_method: method.id, confirm: true };
      const first = await failureOf(stripe.paymentIntents.create(params, { idempotencyKey: 'k-declined' }));
      const second = await failureOf(stripe.paymentIntents.create(params, { idempotencyKey: 'k-declined' }));
      expect(second).toMatchObject({ statusCode: 402, decline_code: 'generic_decline' });
      expect(second.payment_intent!.id).toBe(first.payment_intent!.id);
      expect(second.headers?.['idempotent-replayed']).toBe('true');
    });

    test('the same key with another body is a 400 idempotency_error', async () => {
      await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'k-customer' });
      const failure = await failureOf(
        stripe.customers.create({ email: 'b@example.com' }, { idempotencyKey: 'k-customer' }),
      );
      expect(failure).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
      expect(failure).toMatchObject({ statusCode: 400, type: 'StripeIdempotencyError' });
      expect(failure.message).toMatch(/same parameters/);
    });

    test('the same key while the first request is still running is a 409 idempotency_error', async () => {
      fake.delayNext(300);
      const first = stripe.customers.create({ email: 'slow@example.com' }, { idempotencyKey: 'k-slow' });
      await waitUntil(() => fake.requests.some((request) => request.idempotencyKey === 'k-slow'), 'the first request');
      const failure = await failureOf(
        stripe.customers.create({ email: 'slow@example.com' }, { idempotencyKey: 'k-slow' }),
      );
      // The SDK reads a 409 as an API error (its idempotency class is for 400s), keeping Stripe's type.
      expect(failure).toBeInstanceOf(Stripe.errors.StripeAPIError);
      expect(failure).toMatchObject({ statusCode: 409, rawType: 'idempotency_error' });
      expect((await first).email).toBe('slow@example.com');
    });
  });

  describe('failures steered by the test', () => {
    test('failNext: 500 api_error, then 429 rate_limit, neither applied; the request after them works', async () => {
      fake.failNext(1, 500);
      fake.failNext(1, 429);
      const before = fake.list('customer').length;
      const serverError = await failureOf(stripe.customers.create({ email: 'x@example.com' }));
      expect(serverError).toBeInstanceOf(Stripe.errors.StripeAPIError);
      expect(serverError.statusCode).toBe(500);
      const rateLimited = await failureOf(stripe.customers.create({ email: 'x@example.com' }));
      expect(rateLimited).toBeInstanceOf(Stripe.errors.StripeRateLimitError);
      expect(rateLimited.statusCode).toBe(429);
      expect(fake.list('customer')).toHaveLength(before);
      await stripe.customers.create({ email: 'x@example.com' });
      expect(fake.list('customer')).toHaveLength(before + 1);
    });

    test('delayNext past the SDK timeout: the SDK gives up, and the request is applied all the same', async () => {
      const impatient = sdk({ timeout: 200 });
      const method = await paymentMethod('4242424242424242');
      fake.delayNext(1_000);
      const failure = await failureOf(
        impatient.paymentIntents.create({
          amount: 1500,
          currency: 'usd',
          payment_method: method.id,
          confirm: true,
          metadata: { tessera_payment_id: 'pay_timed_out' },
        }),
      );
      expect(failure).toBeInstanceOf(Stripe.errors.StripeConnectionError);
      expect(failure.message).toMatch(/timeout/);
      const found = await waitFor(
        () => stripe.paymentIntents.search({ query: "metadata['tessera_payment_id']:'pay_timed_out'" }),
        (result) => result.data.length > 0,
      );
      expect(found.data).toEqual([expect.objectContaining({ status: 'succeeded', amount: 1500 })]);
    });

    test('dropAfterCommit: applied, no answer; the SDK retries a closed connection once with the same key and is replayed', async () => {
      const method = await paymentMethod('4242424242424242');
      fake.dropAfterCommit();
      const intent = await stripe.paymentIntents.create({
        amount: 1200,
        currency: 'usd',
        payment_method: method.id,
        confirm: true,
        metadata: { tessera_payment_id: 'pay_dropped_once' },
      });
      expect(intent.status).toBe('succeeded');
      expect(intent.lastResponse.headers['idempotent-replayed']).toBe('true');
      const sent = fake.requests.filter(
        (request) => request.body.metadata?.['tessera_payment_id' as never] === 'pay_dropped_once',
      );
      expect(sent.map((request) => request.replayed)).toEqual([false, true]);
      expect(new Set(sent.map((request) => request.idempotencyKey)).size).toBe(1);
    });

    test('dropAfterCommit twice: the outcome is unknown to the caller, and search by metadata finds the one intent', async () => {
      const method = await paymentMethod('4242424242424242');
      fake.dropAfterCommit(2);
      const failure = await failureOf(
        stripe.paymentIntents.create(
          {
            amount: 1300,
            currency: 'usd',
            payment_method: method.id,
            confirm: true,
            metadata: { tessera_payment_id: 'pay_unknown' },
          },
          { idempotencyKey: 'pay_unknown' },
        ),
      );
      expect(failure).toBeInstanceOf(Stripe.errors.StripeConnectionError);
      const found = await stripe.paymentIntents.search({ query: "metadata['tessera_payment_id']:'pay_unknown'" });
      expect(found.data).toEqual([expect.objectContaining({ status: 'succeeded', amount: 1300 })]);
    });
  });

  describe('customers and saved cards', () => {
    test('a PaymentMethod attached to a Customer is charged off-session, again and again', async () => {
      const customer = await stripe.customers.create({ email: 'saver@example.com', metadata: { tessera: 'c1' } });
      expect(customer.id).toMatch(/^cus_/);
      expect(await stripe.customers.retrieve(customer.id)).toMatchObject({ email: 'saver@example.com' });
      const method = await stripe.paymentMethods.attach((await paymentMethod('4242424242424242')).id, {
        customer: customer.id,
      });
      expect(method.customer).toBe(customer.id);
      for (const amount of [1000, 2000]) {
        const intent = await stripe.paymentIntents.create({
          amount,
          currency: 'usd',
          customer: customer.id,
          payment_method: method.id,
          confirm: true,
          off_session: true,
        });
        expect(intent.status).toBe('succeeded');
      }
      const withoutCustomer = await failureOf(
        stripe.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: method.id, confirm: true }),
      );
      expect(withoutCustomer).toMatchObject({ statusCode: 400, param: 'payment_method' });
    });

    test('a PaymentMethod used once without a Customer may not be used again', async () => {
      const method = await paymentMethod('4242424242424242');
      await stripe.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: method.id, confirm: true });
      const again = await failureOf(
        stripe.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: method.id, confirm: true }),
      );
      expect(again).toMatchObject({ statusCode: 400, message: expect.stringMatching(/may not be used again/) });
    });

    test('a charge with a Customer and setup_future_usage attaches the PaymentMethod: it is charged again off-session', async () => {
      const customer = await stripe.customers.create({ email: 'keeper@example.com' });
      const method = await paymentMethod('4242424242424242');
      const first = await stripe.paymentIntents.create({
        amount: 1000,
        currency: 'usd',
        customer: customer.id,
        payment_method: method.id,
        setup_future_usage: 'off_session',
        confirm: true,
      });
      expect(first).toMatchObject({ status: 'succeeded', customer: customer.id, setup_future_usage: 'off_session' });
      expect((await stripe.paymentMethods.retrieve(method.id)).customer).toBe(customer.id);
      const later = await stripe.paymentIntents.create({
        amount: 1000,
        currency: 'usd',
        customer: customer.id,
        payment_method: method.id,
        confirm: true,
        off_session: true,
      });
      expect(later).toMatchObject({ status: 'succeeded', customer: customer.id, payment_method: method.id });
    });

    test('a charge with a Customer but no setup_future_usage leaves the PaymentMethod unattached: not charged again', async () => {
      const customer = await stripe.customers.create({ email: 'once@example.com' });
      const method = await paymentMethod('4242424242424242');
      const first = await stripe.paymentIntents.create({
        amount: 1000,
        currency: 'usd',
        customer: customer.id,
        payment_method: method.id,
        confirm: true,
      });
      expect(first.status).toBe('succeeded');
      expect((await stripe.paymentMethods.retrieve(method.id)).customer).toBeNull();
      const again = await failureOf(
        stripe.paymentIntents.create({
          amount: 1000,
          currency: 'usd',
          customer: customer.id,
          payment_method: method.id,
          confirm: true,
          off_session: true,
        }),
      );
      expect(again).toMatchObject({ statusCode: 400, message: expect.stringMatching(/may not be used again/) });
    });

    test('setup_future_usage on a 3-D Secure card attaches the PaymentMethod once the payer authenticated', async () => {
      const customer = await stripe.customers.create({ email: 'secure@example.com' });
      const method = await paymentMethod('4000002500003155');
      const intent = await stripe.paymentIntents.create({
        amount: 1000,
        currency: 'usd',
        customer: customer.id,
        payment_method: method.id,
        setup_future_usage: 'off_session',
        return_url: 'https://shop.example/back',
        confirm: true,
      });
      expect(intent.status).toBe('requires_action');
      expect((await stripe.paymentMethods.retrieve(method.id)).customer).toBeNull();
      await fetch(intent.next_action!.redirect_to_url!.url!, { redirect: 'manual' });
      expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('succeeded');
      expect((await stripe.paymentMethods.retrieve(method.id)).customer).toBe(customer.id);
    });
  });

  describe('refunds, disputes, balance transactions and webhooks', () => {
    let receiver: Receiver;
    let isolated: FakeStripe;
    let client: Stripe;
    let clock = 1_767_225_600; // 2026-01-01T00:00:00Z
    const secret = 'whsec_test_fake_secret';

    beforeAll(async () => {
      receiver = new Receiver();
      await receiver.start();
      isolated = await new FakeStripe({ now: () => clock }).start();
      isolated.deliverTo(receiver.url('/stripe'), secret);
      client = new Stripe(isolated.secretKey, { ...isolated.sdkConfig, maxNetworkRetries: 0 });
    });
    afterAll(async () => {
      await isolated.close();
      await receiver.close();
    });

    const chargeHere = async (amount: number) =>
      client.paymentIntents.create({
        amount,
        currency: 'usd',
        payment_method: (await client.paymentMethods.create({ type: 'card', card: cardOf('4242424242424242') })).id,
        confirm: true,
      });
    const eventsReceived = async (type: string) => {
      await isolated.deliveriesSettled();
      return receiver
        .at('/stripe')
        .map((request) =>
          client.webhooks.constructEvent(request.body, String(request.headers['stripe-signature']), secret),
        )
        .filter((event) => event.type === type);
    };

    test('every event is POSTed with a Stripe-Signature the SDK verifies, and a tampered body is refused', async () => {
      const intent = await chargeHere(3000);
      const [succeeded] = await eventsReceived('payment_intent.succeeded');
      expect(succeeded).toMatchObject({ object: 'event', id: expect.stringMatching(/^evt_/), livemode: false });
      expect(succeeded.data.object).toMatchObject({ id: intent.id, status: 'succeeded' });
      const delivered = receiver.at('/stripe')[0];
      expect(String(delivered.headers['stripe-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(() =>
        client.webhooks.constructEvent(
          delivered.body.replace('"livemode": false', '"livemode": true'),
          String(delivered.headers['stripe-signature']),
          secret,
        ),
      ).toThrow(Stripe.errors.StripeSignatureVerificationError);
      expect(() =>
        client.webhooks.constructEvent(delivered.body, String(delivered.headers['stripe-signature']), 'whsec_other'),
      ).toThrow(Stripe.errors.StripeSignatureVerificationError);
      expect((await client.events.retrieve(succeeded.id)).type).toBe('payment_intent.succeeded');
    });

    test('a declined charge sends payment_intent.payment_failed', async () => {
      const method = await client.paymentMethods.create({ type: 'card', card: cardOf('4000000000000002') });
      const failure = await failureOf(
        client.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: method.id, confirm: true }),
      );
      const failed = await eventsReceived('payment_intent.payment_failed');
      expect(failed.map((event) => (event.data.object as Stripe.PaymentIntent).id)).toContain(
        failure.payment_intent!.id,
      );
    });

    test('refunds: partial then the rest, charge.refunded each time; more than remains is refused', async () => {
      const intent = await chargeHere(5000);
      const partial = await client.refunds.create({
        payment_intent: intent.id,
        amount: 2000,
        metadata: { tessera_refund_id: 'ref_1' },
      });
      expect(partial).toMatchObject({
        id: expect.stringMatching(/^re_/),
        object: 'refund',
        amount: 2000,
        status: 'succeeded',
        payment_intent: intent.id,
        metadata: { tessera_refund_id: 'ref_1' },
      });
      expect(await client.refunds.retrieve(partial.id)).toEqual(partial);
      const tooMuch = await failureOf(client.refunds.create({ payment_intent: intent.id, amount: 3001 }));
      expect(tooMuch).toMatchObject({ statusCode: 400, code: 'amount_too_large', param: 'amount' });
      const rest = await client.refunds.create({ payment_intent: intent.id });
      expect(rest.amount).toBe(3000);
      const charge = await client.charges.retrieve(intent.latest_charge as string);
      expect(charge).toMatchObject({ amount_refunded: 5000, refunded: true });
      const refunded = (await eventsReceived('charge.refunded')).filter(
        (event) => (event.data.object as Stripe.Charge).id === charge.id,
      );
      expect(refunded.map((event) => (event.data.object as Stripe.Charge).amount_refunded)).toEqual([2000, 5000]);
      const again = await failureOf(client.refunds.create({ payment_intent: intent.id }));
      expect(again).toMatchObject({ statusCode: 400, code: 'charge_already_refunded' });
    });

    test('failRefund: the refund fails, refund.updated says so, and a refund_failure transaction gives the money back', async () => {
      const intent = await chargeHere(4000);
      const refund = await client.refunds.create({ payment_intent: intent.id, amount: 1500 });
      isolated.failRefund(refund.id);
      const after = await client.refunds.retrieve(refund.id);
      expect(after).toMatchObject({ status: 'failed', failure_reason: 'expired_or_canceled_card' });
      const back = await client.balanceTransactions.retrieve(after.failure_balance_transaction as string);
      expect(back).toMatchObject({ type: 'refund_failure', amount: 1500, source: refund.id });
      const updated = (await eventsReceived('refund.updated')).find(
        (event) => (event.data.object as Stripe.Refund).id === refund.id,
      );
      expect(updated?.data).toMatchObject({
        object: { status: 'failed' },
        previous_attributes: { status: 'succeeded' },
      });
    });

    test.each([
      ['won', [-2500, 2500], [1500, -1500]],
      ['lost', [-2500], [1500]],
    ] as const)(
      'a dispute %s: charge.dispute.created and closed, with its balance transactions',
      async (outcome, amounts, fees) => {
        const intent = await chargeHere(2500);
        const opened = isolated.createDispute(intent.id, { amount: 2500, reason: 'fraudulent' });
        expect(opened).toMatchObject({
          id: expect.stringMatching(/^dp_/),
          status: 'needs_response',
          charge: intent.latest_charge,
        });
        expect(await client.disputes.retrieve(opened.id)).toMatchObject({ amount: 2500, reason: 'fraudulent' });
        isolated.closeDispute(opened.id, outcome);
        const closed = await client.disputes.retrieve(opened.id);
        expect(closed.status).toBe(outcome);
        const transactions = closed.balance_transactions;
        expect(transactions.map((transaction) => transaction.amount)).toEqual(amounts);
        expect(transactions.map((transaction) => transaction.fee)).toEqual(fees);
        const ofThis = (type: string) =>
          eventsReceived(type).then((events) =>
            events.filter((event) => (event.data.object as Stripe.Dispute).id === opened.id),
          );
        expect(await ofThis('charge.dispute.created')).toHaveLength(1);
        expect((await ofThis('charge.dispute.closed'))[0].data.object).toMatchObject({ status: outcome });
      },
    );

    test('balance transactions: by created range and type, newest first, a page at a time', async () => {
      clock = 1_767_312_000; // 2026-01-02
      const day = [await chargeHere(1000), await chargeHere(2000), await chargeHere(3000)];
      await client.refunds.create({ payment_intent: day[0].id, amount: 400 });
      isolated.createDispute(day[1].id, { amount: 2000, reason: 'general' });
      clock = 1_767_398_400; // 2026-01-03: outside the range
      await chargeHere(9000);

      const range = { gte: 1_767_312_000, lt: 1_767_398_400 };
      const first = await client.balanceTransactions.list({ created: range, limit: 3 });
      expect(first.has_more).toBe(true);
      const second = await client.balanceTransactions.list({
        created: range,
        limit: 3,
        starting_after: first.data[2].id,
      });
      expect(second.has_more).toBe(false);
      const all = [...first.data, ...second.data];
      expect(all.map((transaction) => [transaction.type, transaction.amount])).toEqual([
        ['adjustment', -2000],
        ['refund', -400],
        ['charge', 3000],
        ['charge', 2000],
        ['charge', 1000],
      ]);
      expect(all.map((transaction) => transaction.fee)).toEqual([1500, 0, 117, 88, 59]);
      expect(all.every((transaction) => transaction.net === transaction.amount - transaction.fee)).toBe(true);
      const charges = await client.balanceTransactions.list({ created: range, type: 'charge' });
      expect(charges.data.map((transaction) => transaction.amount)).toEqual([3000, 2000, 1000]);

      const autoPaged: string[] = [];
      for await (const transaction of client.balanceTransactions.list({ created: range, limit: 2 }))
        autoPaged.push(transaction.id);
      expect(autoPaged).toEqual(all.map((transaction) => transaction.id));
    });
  });

  test('the request log holds what reached Stripe, card numbers included (what Tessera must never keep)', async () => {
    await paymentMethod('4000000000009995');
    expect(
      fake.requests.some(
        (request) =>
          request.method === 'POST' &&
          request.path === '/v1/payment_methods' &&
          JSON.stringify(request.body).includes('4000000000009995'),
      ),
    ).toBe(true);
  });
});
