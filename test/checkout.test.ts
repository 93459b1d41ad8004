import { PaymentSource } from '../src/domain/payments/payment.entities';
import { Worker, startWorker, stopWorker } from '../src/jobs/worker';
import { TestServer, startTestServer } from './support/harness';
import { CARDS, FUTURE_YEAR, api, cardForm, createSession, eventsOf, page, pathOf, waitFor } from './support/checkout';

const SESSION_FIELDS = [
  'id',
  'object',
  'status',
  'amount',
  'amountMinor',
  'currency',
  'customerEmail',
  'description',
  'successUrl',
  'cancelUrl',
  'checkoutUrl',
  'source',
  'sourceId',
  'paymentId',
  'paymentMethods',
  'collectionId',
  'metadata',
  'expiresAt',
  'completedAt',
  'livemode',
  'createdAt',
  'updatedAt',
].sort();

/** Interface document: "Create a hosted checkout session" and the hosted payment page behind checkoutUrl. */
describe('hosted checkout sessions (REST)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ publicBaseUrl: 'https://pay.tessera.test' });
  });
  afterAll(async () => {
    await server.close();
  });

  test('creating a session answers 201 with the session and a checkoutUrl on the public base URL', async () => {
    const merchant = await server.signUp();
    const before = Date.now();
    const response = await api(server, merchant)('POST', '/api/v1/business/checkout/session', {
      amount: 25.5,
      currency: 'USD',
      customerEmail: 'Payer@Example.com',
      successUrl: 'https://shop.example.com/thanks?order=7',
      cancelUrl: 'https://shop.example.com/cart',
      description: 'Order 7',
      metadata: { orderId: '7' },
    });
    expect(response.status).toBe(201);
    expect(response.body.success).toBe(true);
    const session = response.body.data;
    expect(Object.keys(session).sort()).toEqual(SESSION_FIELDS);
    expect(session).toMatchObject({
      object: 'checkout_session',
      status: 'OPEN',
      amount: '25.50',
      amountMinor: '2550',
      currency: 'usd',
      customerEmail: 'payer@example.com',
      successUrl: 'https://shop.example.com/thanks?order=7',
      cancelUrl: 'https://shop.example.com/cart',
      description: 'Order 7',
      source: 'api',
      sourceId: null,
      paymentId: null,
      metadata: { orderId: '7' },
      livemode: false,
    });
    expect(session.checkoutUrl).toMatch(/^https:\/\/pay\.tessera\.test\/checkout\/cs_test_[A-Za-z0-9_-]{43}$/);
    const lifetime = Date.parse(session.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(24 * 3600 * 1000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(24 * 3600 * 1000 + 60_000);
  });

  test('POST /business/payment/session is the same operation', async () => {
    const merchant = await server.signUp();
    const response = await api(server, merchant)('POST', '/api/v1/business/payment/session', {
      amount: '10',
      currency: 'eur',
      successUrl: 'https://shop.example.com/ok',
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      object: 'checkout_session',
      status: 'OPEN',
      amount: '10.00',
      currency: 'eur',
      customerEmail: null,
      source: 'api',
    });
    const read = await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${response.body.data.id}`);
    expect(read.body.data).toEqual(response.body.data);
  });

  test('bad input is a 400 VALIDATION_ERROR with per-field errors, and nothing is written', async () => {
    const merchant = await server.signUp();
    const call = api(server, merchant);
    const response = await call('POST', '/api/v1/business/checkout/session', {
      amount: 'ten',
      currency: 'usd',
      customerEmail: 'not-an-email',
      successUrl: '/relative',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(response.body.error.errors).sort()).toEqual(['amount', 'customerEmail', 'successUrl']);
    const amount = await call('POST', '/api/v1/business/checkout/session', {
      amount: 0,
      currency: 'usd',
      successUrl: 'https://a.example',
    });
    expect(amount.status).toBe(400);
    expect(amount.body.error.errors.amount).toEqual(['must be greater than zero']);
    const decimals = await call('POST', '/api/v1/business/checkout/session', {
      amount: 1.001,
      currency: 'usd',
      successUrl: 'https://a.example',
    });
    expect(decimals.body.error.errors.amount).toEqual(['USD allows at most 2 decimal places']);
    const currency = await call('POST', '/api/v1/business/checkout/session', {
      amount: 1,
      currency: 'xyz',
      successUrl: 'https://a.example',
    });
    expect(currency.status).toBe(400);
    expect(currency.body.error.code).toBe('UNSUPPORTED_CURRENCY');
    const missing = await call('POST', '/api/v1/business/checkout/session', {});
    expect(Object.keys(missing.body.error.errors).sort()).toEqual(['amount', 'currency', 'successUrl']);
    const ftp = await call('POST', '/api/v1/business/checkout/session', {
      amount: 1,
      currency: 'usd',
      successUrl: 'ftp://a.example/x',
    });
    expect(ftp.body.error.errors.successUrl).toEqual(['must be an absolute http(s) URL']);
    const list = await call('GET', '/api/v1/business/checkout/sessions');
    expect(list.body.data.total).toBe(0);
  });

  test('a VIEWER may read sessions, links, invoices and gifts but create none (403)', async () => {
    const owner = await server.signUp();
    const viewer = await server.signUp();
    await server.addTeamMember(owner, viewer, 'VIEWER');
    const headers = { authorization: `Bearer ${viewer.token}`, 'x-service-business-id': owner.businessId };
    const post = (path: string, body: unknown) => server.request('POST', path, { headers, body });
    expect(
      (await post('/api/v1/business/checkout/session', { amount: 1, currency: 'usd', successUrl: 'https://a.example' }))
        .status,
    ).toBe(403);
    expect((await post('/api/v1/business/payment-links', { name: 'x', amount: 1, currency: 'usd' })).status).toBe(403);
    expect(
      (await post('/api/v1/business/invoices', { customerEmail: 'c@example.com', currency: 'usd', amount: 1 })).status,
    ).toBe(403);
    for (const path of [
      '/api/v1/business/checkout/sessions',
      '/api/v1/business/payment-links',
      '/api/v1/business/invoices',
      '/api/v1/business/recurring-gifts',
    ]) {
      expect((await server.request('GET', path, { headers })).status).toBe(200);
    }
  });

  test('sessions need a credential', async () => {
    const response = await server.request('POST', '/api/v1/business/checkout/session', {
      body: { amount: 1, currency: 'usd', successUrl: 'https://a.example' },
    });
    expect(response.status).toBe(401);
  });

  test("another business's session, the other mode's and a malformed id answer 404", async () => {
    const owner = await server.signUp();
    const other = await server.signUp();
    const session = await createSession(server, owner);
    expect((await api(server, other)('GET', `/api/v1/business/checkout/sessions/${session.id}`)).status).toBe(404);
    expect((await api(server, owner)('GET', '/api/v1/business/checkout/sessions/not-a-uuid')).status).toBe(404);
    const live = await server.graphql(
      'mutation { createLiveCredentials { credentials { apiKey } } }',
      {},
      { authorization: `Bearer ${owner.token}` },
    );
    const liveKey = live.body.data.createLiveCredentials.credentials.apiKey;
    expect((await api(server, liveKey)('GET', `/api/v1/business/checkout/sessions/${session.id}`)).status).toBe(404);
    expect((await api(server, other)('GET', '/api/v1/business/checkout/sessions')).body.data.total).toBe(0);
  });

  test('a live session is refused when it is created (422 UNPROCESSABLE, as live charges are) on both paths while no live acquirer is configured; nothing is written', async () => {
    const merchant = await server.signUp();
    const live = await server.graphql(
      'mutation { createLiveCredentials { credentials { apiKey } } }',
      {},
      { authorization: `Bearer ${merchant.token}` },
    );
    const liveCall = api(server, live.body.data.createLiveCredentials.credentials.apiKey);
    for (const path of ['/api/v1/business/checkout/session', '/api/v1/business/payment/session']) {
      const refused = await liveCall('POST', path, {
        amount: 5,
        currency: 'usd',
        customerEmail: 'p@example.com',
        successUrl: 'https://shop.example.com/ok',
      });
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({
        success: false,
        error: {
          code: 'UNPROCESSABLE',
          statusCode: 422,
          message: expect.stringContaining('No card acquirer is configured for live mode'),
        },
      });
    }
    // Validation still comes first: a bad body is a 400 on its fields, not the 422.
    expect((await liveCall('POST', '/api/v1/business/checkout/session', { amount: 5 })).status).toBe(400);
    const [{ n }] = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS n FROM checkout_sessions WHERE business_id = $1`,
      [merchant.businessId],
    );
    expect(n).toBe(0);
    expect((await liveCall('GET', '/api/v1/business/checkout/sessions')).body.data.total).toBe(0);
    // Test mode is unaffected.
    expect(
      (
        await api(server, merchant)('POST', '/api/v1/business/checkout/session', {
          amount: 5,
          currency: 'usd',
          successUrl: 'https://shop.example.com/ok',
        })
      ).status,
    ).toBe(201);
  });

  test('the session list is newest first with page, limit, total and a status filter', async () => {
    const merchant = await server.signUp();
    const first = await createSession(server, merchant, { amount: 1 });
    const second = await createSession(server, merchant, { amount: 2 });
    const call = api(server, merchant);
    const list = await call('GET', '/api/v1/business/checkout/sessions?limit=1');
    expect(list.body.data).toMatchObject({ total: 2, page: 1, limit: 1 });
    expect(list.body.data.items.map((item: any) => item.id)).toEqual([second.id]);
    const next = await call('GET', '/api/v1/business/checkout/sessions?limit=1&page=2');
    expect(next.body.data.items.map((item: any) => item.id)).toEqual([first.id]);
    expect((await call('GET', '/api/v1/business/checkout/sessions?status=COMPLETED')).body.data.total).toBe(0);
    expect((await call('GET', '/api/v1/business/checkout/sessions?status=open&source=API')).body.data.total).toBe(2);
    expect((await call('GET', '/api/v1/business/checkout/sessions?status=Completed')).body.data.total).toBe(0);
    const bad = await call('GET', '/api/v1/business/checkout/sessions?status=DONE&limit=500');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.errors).sort()).toEqual(['limit', 'status']);
  });

  describe('the hosted page', () => {
    test('GET shows the amount, the merchant, a card form and an email field when the session has none; secure headers', async () => {
      const merchant = await server.signUp({ businessName: 'Acme <Books>' });
      const session = await createSession(server, merchant, {
        amount: 42,
        customerEmail: undefined,
        description: 'Two <b>books</b>',
      });
      const response = await page(server, 'GET', pathOf(session.checkoutUrl));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.body).toContain('42.00 USD');
      expect(response.body).toContain('Acme &lt;Books&gt;');
      expect(response.body).toContain('Two &lt;b&gt;books&lt;/b&gt;');
      for (const field of ['email', 'number', 'expiryMonth', 'expiryYear', 'cvv'])
        expect(response.body).toContain(`name="${field}"`);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      const csp = response.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("form-action 'self' https://shop.example.com");
      expect(csp).not.toContain('unsafe-inline');
    });

    test('with the session email known, the page does not ask for it', async () => {
      const merchant = await server.signUp();
      const session = await createSession(server, merchant);
      const response = await page(server, 'GET', pathOf(session.checkoutUrl));
      expect(response.body).not.toContain('name="email"');
    });

    test('an unknown token answers a 404 page', async () => {
      const response = await page(server, 'GET', `/checkout/cs_test_${'x'.repeat(43)}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect((await page(server, 'GET', '/checkout/nope')).status).toBe(404);
    });

    test('paying with a good card completes the session, emits payment_link.session.completed and redirects to successUrl with session_id', async () => {
      const merchant = await server.signUp();
      const session = await createSession(server, merchant, {
        amount: 25,
        successUrl: 'https://shop.example.com/thanks?order=9',
      });
      const response = await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.success));
      expect(response.status).toBe(303);
      expect(response.location).toBe(`https://shop.example.com/thanks?order=9&session_id=${session.id}`);
      const read = (await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${session.id}`)).body.data;
      expect(read.status).toBe('COMPLETED');
      expect(read.paymentId).toEqual(expect.any(String));
      expect(read.completedAt).toEqual(expect.any(String));
      const [payment] = await server.runtime.dataSource.query(
        `SELECT status, amount, email, source, source_id FROM payments WHERE id = $1`,
        [read.paymentId],
      );
      expect(payment).toEqual({
        status: 'COMPLETED',
        amount: '2500',
        email: 'payer@example.com',
        source: 'checkout_session',
        source_id: session.id,
      });
      const events = await eventsOf(server, merchant.businessId, 'payment_link.session.completed');
      expect(events.map((event) => event.data)).toEqual([
        {
          sessionId: session.id,
          source: 'api',
          sourceId: null,
          status: 'COMPLETED',
          amount: '25.00',
          currency: 'usd',
          paymentId: read.paymentId,
        },
      ]);
    });

    test('a completed session is never charged again: a second submit and a GET redirect to success', async () => {
      const merchant = await server.signUp();
      const session = await createSession(server, merchant);
      await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.success));
      const again = await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.success));
      expect(again.status).toBe(303);
      expect(again.location).toContain(`session_id=${session.id}`);
      const get = await page(server, 'GET', pathOf(session.checkoutUrl));
      expect(get.status).toBe(303);
      const [{ n }] = await server.runtime.dataSource.query(
        `SELECT count(*)::int AS n FROM payments WHERE source_id = $1`,
        [session.id],
      );
      expect(n).toBe(1);
      expect(await eventsOf(server, merchant.businessId, 'payment_link.session.completed')).toHaveLength(1);
    });

    test('concurrent submits charge once and complete the session once', async () => {
      const merchant = await server.signUp();
      const session = await createSession(server, merchant);
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.success))),
      );
      for (const response of responses) expect([303, 409]).toContain(response.status);
      expect(
        responses.some(
          (response) => response.status === 303 && response.location!.startsWith('https://shop.example.com/thanks'),
        ),
      ).toBe(true);
      const [{ n }] = await server.runtime.dataSource.query(
        `SELECT count(*)::int AS n FROM payments WHERE source_id = $1`,
        [session.id],
      );
      expect(n).toBe(1);
      expect(await eventsOf(server, merchant.businessId, 'payment_link.session.completed')).toHaveLength(1);
      const after = await page(server, 'GET', pathOf(session.checkoutUrl));
      expect(after.status).toBe(303);
    });

    test('a payment the session made but never recorded (process died after the charge) is adopted on resubmit, not charged again', async () => {
      const merchant = await server.signUp();
      const session = await createSession(server, merchant);
      const { core } = server.runtime;
      const ctx = await core.identity.auth.authenticate(core.anonymousContext(), { apiKey: merchant.apiKey });
      const orphan = await core.payments.charge(ctx, {
        amount: 2500n,
        currency: 'USD',
        email: 'payer@example.com',
        card: {
          kind: 'card',
          details: { number: CARDS.success, expiryMonth: 12, expiryYear: Number(FUTURE_YEAR), cvv: '123' },
        },
        origin: { source: PaymentSource.CHECKOUT_SESSION, sourceId: session.id },
      });
      expect(orphan.status).toBe('COMPLETED');
      const resubmit = await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.success));
      expect(resubmit.status).toBe(303);
      expect(resubmit.location!.startsWith('https://shop.example.com/thanks')).toBe(true);
      const [{ n }] = await server.runtime.dataSource.query(
        `SELECT count(*)::int AS n FROM payments WHERE source_id = $1`,
        [session.id],
      );
      expect(n).toBe(1);
      const read = (await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${session.id}`)).body.data;
      expect(read).toMatchObject({ status: 'COMPLETED', paymentId: orphan.id });
      expect(await eventsOf(server, merchant.businessId, 'payment_link.session.completed')).toHaveLength(1);
    });

    test("a declined card re-renders the form with the reason in a payer's words (402), never echoing the card number; the session stays OPEN", async () => {
      const merchant = await server.signUp();
      const session = await createSession(server, merchant);
      const response = await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.declined));
      expect(response.status).toBe(402);
      expect(response.body).toContain('Your card was declined. Try another card, or ask your bank why.');
      expect(response.body).not.toContain('card_declined');
      expect(response.body).not.toContain(CARDS.declined);
      expect(response.body).not.toContain('value="123"');
      const read = (await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${session.id}`)).body.data;
      expect(read).toMatchObject({ status: 'OPEN', paymentId: null });
      const retry = await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.success));
      expect(retry.status).toBe(303);
    });

    test('insufficient funds shows its own reason', async () => {
      const merchant = await server.signUp();
      const session = await createSession(server, merchant);
      const response = await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.insufficientFunds));
      expect(response.status).toBe(402);
      expect(response.body).toContain('Your card was declined: not enough funds. Try another card.');
    });

    test("validation errors are shown per field in a payer's words, each marked invalid and linked to its field, escaped, and nothing is charged", async () => {
      const merchant = await server.signUp();
      const session = await createSession(server, merchant, { customerEmail: undefined });
      const response = await page(server, 'POST', pathOf(session.checkoutUrl), {
        number: CARDS.badLuhn,
        expiryMonth: '13',
        expiryYear: FUTURE_YEAR,
        cvv: '12',
        email: '<script>alert(1)</script>',
      });
      expect(response.status).toBe(400);
      const fieldOf = (name: string) =>
        new RegExp(
          `<input id="${name}" [^>]*aria-invalid="true" aria-describedby="${name}-error"[^>]*>\\s*<div class="field-error" id="${name}-error">([^<]*)</div>`,
        ).exec(response.body)?.[1];
      expect(fieldOf('number')).toBe('This card number is not valid: check the digits');
      expect(fieldOf('expiryMonth')).toBe('Enter the expiry month as a number from 01 to 12');
      expect(fieldOf('cvv')).toBe('Enter the 3-digit security code');
      expect(fieldOf('email')).toBe('Enter a valid email address, like name@example.com');
      // The first refused field in the page's order is focused when the page opens.
      expect(response.body.match(/ autofocus/g)).toHaveLength(1);
      expect(response.body).toMatch(/<input id="email" [^>]* autofocus>/);
      expect(response.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(response.body).not.toContain('<script>alert(1)</script>');
      expect(response.body).not.toContain(CARDS.badLuhn);
      const [{ n }] = await server.runtime.dataSource.query(
        `SELECT count(*)::int AS n FROM payments WHERE business_id = $1`,
        [merchant.businessId],
      );
      expect(n).toBe(0);
    });

    test('a missing email is required when the session has none', async () => {
      const merchant = await server.signUp();
      const session = await createSession(server, merchant, { customerEmail: undefined });
      const response = await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.success));
      expect(response.status).toBe(400);
      expect(response.body).toMatch(/id="email-error">Enter your email address: the receipt is sent there</);
      const paid = await page(
        server,
        'POST',
        pathOf(session.checkoutUrl),
        cardForm(CARDS.success, { email: 'Someone@Example.com' }),
      );
      expect(paid.status).toBe(303);
      const read = (await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${session.id}`)).body.data;
      const [payment] = await server.runtime.dataSource.query(`SELECT email FROM payments WHERE id = $1`, [
        read.paymentId,
      ]);
      expect(payment.email).toBe('someone@example.com');
    });

    test('3-D Secure that succeeds: the 3DS step page completes the payment, then success', async () => {
      const merchant = await server.signUp();
      const session = await createSession(server, merchant);
      const submit = await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.threeDSSuccess));
      expect(submit.status).toBe(303);
      // A path, not PUBLIC_BASE_URL: the payer stays on the host they opened the page under.
      expect(submit.location).toBe(`/checkout/3ds/${session.checkoutUrl.split('/').pop()}`);
      const step = await page(server, 'GET', pathOf(submit.location!));
      expect(step.status).toBe(200);
      expect(step.body).toContain('3-D Secure');
      expect(step.body).toMatch(/<form method="post" action="\/checkout\/3ds\/cs_test_/);
      const nonce = /script-src 'nonce-([^']+)'/.exec(step.headers.get('content-security-policy')!)![1];
      expect(step.body).toContain(`<script nonce="${nonce}">`);
      // While the 3DS step is pending, the card page sends the payer back to it rather than charging again.
      expect((await page(server, 'GET', pathOf(session.checkoutUrl))).location).toBe(submit.location);
      const done = await page(server, 'POST', pathOf(submit.location!));
      expect(done.status).toBe(303);
      expect(done.location).toBe(`https://shop.example.com/thanks?session_id=${session.id}`);
      const read = (await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${session.id}`)).body.data;
      expect(read.status).toBe('COMPLETED');
      const [payment] = await server.runtime.dataSource.query(
        `SELECT status, three_dsecure FROM payments WHERE id = $1`,
        [read.paymentId],
      );
      expect(payment).toEqual({ status: 'COMPLETED', three_dsecure: 'succeeded' });
    });

    test('3-D Secure that fails: the form is shown again with the failure, and the session stays OPEN', async () => {
      const merchant = await server.signUp();
      const session = await createSession(server, merchant);
      const submit = await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.threeDSFailure));
      expect(submit.location).toContain('/checkout/3ds/');
      const done = await page(server, 'POST', pathOf(submit.location!));
      expect(done.status).toBe(402);
      expect(done.body).toContain('3-D Secure authentication failed');
      const read = (await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${session.id}`)).body.data;
      expect(read).toMatchObject({ status: 'OPEN', paymentId: null });
      expect((await page(server, 'GET', pathOf(session.checkoutUrl))).status).toBe(200);
    });

    test('an expired session shows a 410 page and cannot be paid', async () => {
      const merchant = await server.signUp();
      const session = await createSession(server, merchant);
      await server.runtime.dataSource.query(
        `UPDATE checkout_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`,
        [session.id],
      );
      expect((await page(server, 'GET', pathOf(session.checkoutUrl))).status).toBe(410);
      const submit = await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.success));
      expect(submit.status).toBe(410);
      const [{ n }] = await server.runtime.dataSource.query(
        `SELECT count(*)::int AS n FROM payments WHERE source_id = $1`,
        [session.id],
      );
      expect(n).toBe(0);
    });

    test("a session without a successUrl (invoice, link) lands on the hosted receipt page: amount, card, the payment's short reference, no card hints", async () => {
      const merchant = await server.signUp();
      const link = (
        await api(server, merchant)('POST', '/api/v1/business/payment-links', {
          name: 'Donation',
          amount: 5,
          currency: 'usd',
        })
      ).body.data;
      const visit = await page(server, 'GET', pathOf(link.url));
      const paid = await page(
        server,
        'POST',
        pathOf(visit.location!),
        cardForm(CARDS.success, { email: 'a@example.com' }),
      );
      expect(paid.status).toBe(303);
      expect(paid.location).toMatch(/^\/checkout\/cs_test_[^/]+\/complete$/);
      const receipt = await page(server, 'GET', pathOf(paid.location!));
      expect(receipt.status).toBe(200);
      expect(receipt.body).toContain('Payment received');
      const [payment] = await server.runtime.dataSource.query(`SELECT id FROM payments WHERE business_id = $1`, [
        merchant.businessId,
      ]);
      const reference = payment.id
        .replace(/-/g, '')
        .slice(0, 12)
        .toUpperCase()
        .replace(/^(.{8})/, '$1-');
      expect(receipt.body).toContain(`<dd id="receipt-reference">${reference}</dd>`);
      expect(receipt.body).toContain('<dd id="receipt-amount">5.00 USD</dd>');
      expect(receipt.body).toContain('<dd id="receipt-card">Visa ending in 4242</dd>');
      expect(receipt.body).not.toContain('Try card');
      expect(receipt.body).not.toContain(payment.id);
    });

    test('a merchant finds a payment by its receipt reference (REST and GraphQL filter reference, any case, spaces); a malformed one is 400 on reference', async () => {
      const merchant = await server.signUp();
      const other = await server.signUp();
      const session = await createSession(server, merchant);
      await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.success));
      await page(server, 'POST', pathOf((await createSession(server, merchant)).checkoutUrl), cardForm(CARDS.success));
      const { paymentId } = (await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${session.id}`))
        .body.data;
      const reference = `${paymentId.slice(0, 8)}-${paymentId.slice(9, 13)}`.toUpperCase();
      const idsOf = (response: { body: any }) => response.body.data.items.map((item: { id: string }) => item.id);
      expect(idsOf(await api(server, merchant)('GET', `/api/v1/business/payments?reference=${reference}`))).toEqual([
        paymentId,
      ]);
      expect(
        idsOf(
          await api(server, merchant)(
            'GET',
            `/api/v1/business/payments?reference=${encodeURIComponent(` ${reference.toLowerCase().replace('-', ' ')} `)}`,
          ),
        ),
      ).toEqual([paymentId]);
      // Another business's reference finds nothing.
      expect(idsOf(await api(server, other)('GET', `/api/v1/business/payments?reference=${reference}`))).toEqual([]);
      const bad = await api(server, merchant)('GET', '/api/v1/business/payments?reference=not-a-reference');
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.error.errors)).toEqual(['reference']);
      const graphql = await server.graphql(
        'query($reference: String) { payments(filter: { reference: $reference }) { edges { node { id } } } }',
        { reference },
        { 'x-api-key': merchant.apiKey },
      );
      expect(graphql.body.data.payments.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([
        paymentId,
      ]);
    });
  });
});

/** The sandbox 3-D Secure auto-completion (a job) completes the session when the payer never comes back. */
describe('hosted checkout with a worker', () => {
  let server: TestServer;
  let worker: Worker;

  beforeAll(async () => {
    server = await startTestServer({ sandbox3dsAutoCompleteMs: 100, workerPollIntervalMs: 50 });
    worker = await startWorker(server.runtime.core, server.databaseUrl, () => undefined);
  });
  afterAll(async () => {
    await stopWorker(worker);
    await server.close();
  });

  test('the expiry job marks an unpaid session EXPIRED at expiresAt', async () => {
    const merchant = await server.signUp();
    const session = await createSession(server, merchant);
    await server.runtime.dataSource.transaction(async (manager) => {
      await manager.query(`UPDATE checkout_sessions SET expires_at = now() WHERE id = $1`, [session.id]);
      await manager.query(
        `SELECT graphile_worker.add_job('expire_checkout_session', json_build_object('sessionId', $1::text), job_key := $2)`,
        [session.id, `checkout-expire:${session.id}`],
      );
    });
    const read = await waitFor(
      async () => (await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${session.id}`)).body.data,
      (data) => data.status === 'EXPIRED',
    );
    expect(read.status).toBe('EXPIRED');
    // The worker removes a finished job after the task's own transaction commits: wait for that too.
    const jobs = await waitFor(
      () =>
        server.runtime.dataSource.query(`SELECT run_at FROM graphile_worker.jobs WHERE key = $1`, [
          `checkout-expire:${session.id}`,
        ]),
      (rows: unknown[]) => rows.length === 0,
    );
    expect(jobs).toEqual([]);
  });

  test('creating a session schedules its expiry job at expiresAt', async () => {
    const merchant = await server.signUp();
    const session = await createSession(server, merchant);
    const [job] = await server.runtime.dataSource.query(`SELECT run_at FROM graphile_worker.jobs WHERE key = $1`, [
      `checkout-expire:${session.id}`,
    ]);
    expect(new Date(job.run_at).toISOString()).toBe(session.expiresAt);
  });

  test('a 3DS payment finished by the sandbox job completes the session without the payer', async () => {
    const merchant = await server.signUp();
    const session = await createSession(server, merchant);
    const submit = await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.threeDSSuccess));
    expect(submit.location).toContain('/checkout/3ds/');
    const read = await waitFor(
      async () => (await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${session.id}`)).body.data,
      (data) => data.status === 'COMPLETED',
    );
    expect(read.status).toBe('COMPLETED');
    expect(await eventsOf(server, merchant.businessId, 'payment_link.session.completed')).toHaveLength(1);
    // The payer's browser posting the 3DS step late still lands on success.
    const late = await page(server, 'POST', pathOf(submit.location!));
    expect(late.status).toBe(303);
    expect(late.location).toContain(`session_id=${session.id}`);
  });
});
