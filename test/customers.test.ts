import { ErrorCode } from '../src/domain/shared/errors';
import { CARDS, card, charge, enableCharging } from './support/charges';
import { TestMerchant, TestServer, startTestServer } from './support/harness';

/** Interface document, Customer and Retrieve a customer; customer profiles and saved cards over REST. */
describe('customers (REST)', () => {
  let server: TestServer;
  let merchant: TestMerchant;

  const call = (who: TestMerchant | string, method: string, path: string, body?: unknown) =>
    server.request(method, path, {
      headers: { 'x-api-key': typeof who === 'string' ? who : who.apiKey },
      ...(body === undefined ? {} : { body }),
    });
  let emailCounter = 0;
  const newEmail = () => `customer-${Date.now()}-${emailCounter++}@example.com`;
  const createCustomer = async (who: TestMerchant | string, body: Record<string, unknown>) => {
    const response = await call(who, 'POST', '/api/v1/business/customers', body);
    expect(response.status).toBe(201);
    return response.body.data;
  };
  const pay = (who: TestMerchant, email: string, amount: number | string = 10, extra: Record<string, unknown> = {}) =>
    charge(server, who.apiKey, { amount, currency: 'usd', card: card(), email, ...extra });
  const countRows = async (table: string, businessId: string) =>
    (
      await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`, [
        businessId,
      ])
    )[0].n;

  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.signUp();
    await enableCharging(server, merchant);
  });
  afterAll(async () => server.close());

  test('retrieve returns the documented fields: saved cards, recent payments and the default card', async () => {
    const email = newEmail();
    const created = await createCustomer(merchant, {
      email,
      userId: 'user-42',
      firstName: 'Ada',
      lastName: 'Lovelace',
      phoneNumber: '+44 20 7946 0958',
    });
    const attached = await call(merchant, 'POST', `/api/v1/business/customers/${created.customerId}/payment-methods`, {
      card: card(CARDS.mastercard),
    });
    expect(attached.status).toBe(201);
    const payment = await pay(merchant, email, '25.50');
    const response = await call(merchant, 'GET', `/api/v1/business/customers/${created.customerId}`);
    expect(response.status).toBe(200);
    const method = {
      id: attached.body.data.id,
      brand: 'mastercard',
      last4: '4444',
      expiryMonth: 12,
      expiryYear: card().expiryYear,
    };
    expect(response.body).toEqual({
      success: true,
      data: {
        customerId: created.customerId,
        email,
        userId: 'user-42',
        firstName: 'Ada',
        lastName: 'Lovelace',
        phoneNumber: '+44 20 7946 0958',
        paymentMethods: [method],
        defaultPaymentMethod: method,
        recentPayments: [
          {
            paymentId: payment.id,
            amount: '25.50',
            amountMinor: '2550',
            currency: 'usd',
            status: 'COMPLETED',
            failureReason: null,
            amountRefunded: '0.00',
            email,
            card: { brand: 'visa', last4: '4242' },
            paymentMethodId: null,
            createdAt: payment.createdAt.toISOString(),
          },
        ],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
  });

  test('404 for an unknown or malformed id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'cus_123']) {
      const response = await call(merchant, 'GET', `/api/v1/business/customers/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
  });

  test("404 for another business's customer, even one who paid that business", async () => {
    const other = await server.signUp();
    await enableCharging(server, other);
    const email = newEmail();
    const theirs = await createCustomer(other, { email });
    await pay(other, email);
    expect((await call(other, 'GET', `/api/v1/business/customers/${theirs.customerId}`)).status).toBe(200);
    expect((await call(merchant, 'GET', `/api/v1/business/customers/${theirs.customerId}`)).status).toBe(404);
    expect(
      (await call(merchant, 'PATCH', `/api/v1/business/customers/${theirs.customerId}`, { firstName: 'X' })).status,
    ).toBe(404);
    expect(
      (
        await call(merchant, 'POST', `/api/v1/business/customers/${theirs.customerId}/payment-methods`, {
          card: card(),
        })
      ).status,
    ).toBe(404);
  });

  test('404 for a customer of the other mode', async () => {
    const owner = await server.signUp();
    await enableCharging(server, owner);
    const issued = await server.graphql(
      'mutation { createLiveCredentials { credentials { apiKey } } }',
      {},
      { authorization: `Bearer ${owner.token}` },
    );
    const liveKey = issued.body.data.createLiveCredentials.credentials.apiKey;
    const email = newEmail();
    const testCustomer = await createCustomer(owner, { email });
    await pay(owner, email);
    expect((await call(owner, 'GET', `/api/v1/business/customers/${testCustomer.customerId}`)).status).toBe(200);
    expect((await call(liveKey, 'GET', `/api/v1/business/customers/${testCustomer.customerId}`)).status).toBe(404);
    const liveCustomer = await createCustomer(liveKey, { email });
    expect(liveCustomer.customerId).not.toBe(testCustomer.customerId);
    // The live profile has no live payment: the test-mode payment does not count.
    expect((await call(liveKey, 'GET', `/api/v1/business/customers/${liveCustomer.customerId}`)).status).toBe(404);
    expect((await call(owner, 'GET', `/api/v1/business/customers/${liveCustomer.customerId}`)).status).toBe(404);
  });

  test('404 for a stored profile whose customer never paid this business', async () => {
    const other = await server.signUp();
    await enableCharging(server, other);
    const email = newEmail();
    await pay(other, email);
    const profile = await createCustomer(merchant, { email });
    const response = await call(merchant, 'GET', `/api/v1/business/customers/${profile.customerId}`);
    expect(response.status).toBe(404);
    expect(response.body.error.message).toContain('paid');
  });

  test('404 for a customer whose every payment failed: having paid means a captured payment', async () => {
    const email = newEmail();
    const profile = await createCustomer(merchant, { email });
    const declined = await pay(merchant, email, 10, { card: card('4000000000000002') });
    const broke = await pay(merchant, email, 10, { card: card('4000000000009995') });
    expect([declined.status, broke.status]).toEqual(['FAILED', 'FAILED']);
    const response = await call(merchant, 'GET', `/api/v1/business/customers/${profile.customerId}`);
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ code: ErrorCode.NOT_FOUND, statusCode: 404 });
    expect(response.body.error.message).toContain('paid');
    // An unlinked failed payment made before the profile existed does not count either.
    const earlierEmail = newEmail();
    await pay(merchant, earlierEmail, 10, { card: card('4000000000000002') });
    const later = await createCustomer(merchant, { email: earlierEmail });
    expect((await call(merchant, 'GET', `/api/v1/business/customers/${later.customerId}`)).status).toBe(404);
  });

  test('a customer whose captured payment was later refunded in full has paid: retrieve answers 200 with every recent payment', async () => {
    const email = newEmail();
    const profile = await createCustomer(merchant, { email });
    const declined = await pay(merchant, email, 10, { card: card('4000000000000002') });
    const captured = await pay(merchant, email, 15);
    const refund = await call(merchant, 'POST', `/api/v1/business/payments/${captured.id}/refunds`, {});
    expect(refund.status).toBe(201);
    expect(refund.body.data.payment.status).toBe('REFUNDED');
    const response = await call(merchant, 'GET', `/api/v1/business/customers/${profile.customerId}`);
    expect(response.status).toBe(200);
    expect(
      response.body.data.recentPayments.map((payment: { paymentId: string; status: string }) => [
        payment.paymentId,
        payment.status,
      ]),
    ).toEqual([
      [captured.id, 'REFUNDED'],
      [declined.id, 'FAILED'],
    ]);
  });

  test('a payer with payments but no stored profile has no customer; creating the profile links the earlier payments', async () => {
    const email = newEmail();
    const earlier = [await pay(merchant, email, 11), await pay(merchant, email, 12)];
    expect(earlier.every((payment) => payment.customerId === null)).toBe(true);
    const listed = await call(merchant, 'GET', `/api/v1/business/customers?email=${encodeURIComponent(email)}`);
    expect(listed.body.data).toMatchObject({ items: [], total: 0 });
    const profile = await createCustomer(merchant, { email });
    expect(profile.recentPayments.map((payment: { paymentId: string }) => payment.paymentId)).toEqual([
      earlier[1].id,
      earlier[0].id,
    ]);
    const linked = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS n FROM payments WHERE customer_id = $1`,
      [profile.customerId],
    );
    expect(linked[0].n).toBe(2);
    const later = await pay(merchant, email, 13);
    expect(later.customerId).toBe(profile.customerId);
    expect((await call(merchant, 'GET', `/api/v1/business/customers/${profile.customerId}`)).status).toBe(200);
  });

  test('recentPayments holds the 20 most recent payments to the business in this mode, newest first', async () => {
    const email = newEmail();
    const profile = await createCustomer(merchant, { email });
    const payments = [];
    for (let index = 1; index <= 22; index++) payments.push(await pay(merchant, email, index));
    const response = await call(merchant, 'GET', `/api/v1/business/customers/${profile.customerId}`);
    const ids = response.body.data.recentPayments.map((payment: { paymentId: string }) => payment.paymentId);
    expect(ids).toEqual(
      payments
        .slice(2)
        .reverse()
        .map((payment) => payment.id),
    );
  });

  test('creating a profile for an email that has one is 409 CONFLICT', async () => {
    const email = newEmail();
    await createCustomer(merchant, { email });
    const again = await call(merchant, 'POST', '/api/v1/business/customers', { email: email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'CONFLICT', errors: { email: expect.any(Array) } });
  });

  test('bad input on create is 400 VALIDATION_ERROR per field and nothing is written', async () => {
    const before = await countRows('customers', merchant.businessId);
    const cases: Array<[unknown, string[]]> = [
      [{}, ['email']],
      [{ email: 'not-an-email' }, ['email']],
      [
        { email: newEmail(), phoneNumber: 'call me', firstName: 42, userId: '' },
        ['phoneNumber', 'firstName', 'userId'],
      ],
      [['email'], ['_']],
    ];
    for (const [body, fields] of cases) {
      const response = await call(merchant, 'POST', '/api/v1/business/customers', body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(response.body.error.errors).sort()).toEqual([...fields].sort());
    }
    expect(await countRows('customers', merchant.businessId)).toBe(before);
  });

  test('PATCH changes fields, null clears them, and a taken email is 409', async () => {
    const email = newEmail();
    const profile = await createCustomer(merchant, { email, firstName: 'Grace', phoneNumber: '+1 415 555 0100' });
    const updated = await call(merchant, 'PATCH', `/api/v1/business/customers/${profile.customerId}`, {
      lastName: 'Hopper',
      phoneNumber: null,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', phoneNumber: null, email });
    const taken = await createCustomer(merchant, { email: newEmail() });
    const conflict = await call(merchant, 'PATCH', `/api/v1/business/customers/${profile.customerId}`, {
      email: taken.email,
    });
    expect(conflict.status).toBe(409);
    const bad = await call(merchant, 'PATCH', `/api/v1/business/customers/${profile.customerId}`, {
      email: null,
      firstName: '',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.errors).sort()).toEqual(['email', 'firstName']);
  });

  test("changing a profile's email links that email's earlier payments", async () => {
    const profile = await createCustomer(merchant, { email: newEmail() });
    const newAddress = newEmail();
    const payment = await pay(merchant, newAddress);
    const updated = await call(merchant, 'PATCH', `/api/v1/business/customers/${profile.customerId}`, {
      email: newAddress,
    });
    expect(updated.body.data.recentPayments.map((item: { paymentId: string }) => item.paymentId)).toEqual([payment.id]);
  });

  test('list: { items, total, page, limit }, newest first, with an email filter', async () => {
    const owner = await server.signUp();
    const emails = [newEmail(), newEmail(), newEmail()];
    for (const email of emails) await createCustomer(owner, { email });
    const first = await call(owner, 'GET', '/api/v1/business/customers?limit=2');
    expect(first.body.data).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(first.body.data.items.map((item: { email: string }) => item.email)).toEqual([emails[2], emails[1]]);
    const second = await call(owner, 'GET', '/api/v1/business/customers?limit=2&page=2');
    expect(second.body.data.items.map((item: { email: string }) => item.email)).toEqual([emails[0]]);
    const filtered = await call(
      owner,
      'GET',
      `/api/v1/business/customers?email=${encodeURIComponent(emails[1].toUpperCase())}`,
    );
    expect(filtered.body.data).toMatchObject({ total: 1, items: [{ email: emails[1] }] });
    for (const query of ['limit=0', 'limit=101', 'page=x', 'email=nope']) {
      const bad = await call(owner, 'GET', `/api/v1/business/customers?${query}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  test('attaching a card vaults it (the number is never stored or returned); the first card becomes the default', async () => {
    const profile = await createCustomer(merchant, { email: newEmail() });
    const first = await call(merchant, 'POST', `/api/v1/business/customers/${profile.customerId}/payment-methods`, {
      card: card(CARDS.gb),
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({
      id: expect.any(String),
      object: 'payment_method',
      customerId: profile.customerId,
      brand: 'visa',
      last4: '0000',
      expiryMonth: 12,
      expiryYear: card().expiryYear,
      country: 'GB',
      isDefault: true,
      createdAt: expect.any(String),
    });
    const second = await call(merchant, 'POST', `/api/v1/business/customers/${profile.customerId}/payment-methods`, {
      card: card(CARDS.mastercard),
    });
    expect(second.body.data.isDefault).toBe(false);
    const rows = await server.runtime.dataSource.query(
      `SELECT row_to_json(m)::text AS json FROM payment_methods m WHERE customer_id = $1`,
      [profile.customerId],
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.json).not.toContain(CARDS.gb);
      expect(row.json).not.toContain(CARDS.mastercard);
    }
  });

  test('attaching by card token consumes the token', async () => {
    const profile = await createCustomer(merchant, { email: newEmail() });
    const keys = await server.graphql(
      '{ apiCredentials { publishableKey } }',
      {},
      { authorization: `Bearer ${merchant.token}` },
    );
    const tokenResponse = await server.request('POST', '/api/v1/tokens', {
      body: { card: card(CARDS.ng) },
      headers: { 'x-publishable-key': keys.body.data.apiCredentials[0].publishableKey },
    });
    const token = tokenResponse.body.data.id;
    const attached = await call(merchant, 'POST', `/api/v1/business/customers/${profile.customerId}/payment-methods`, {
      token,
    });
    expect(attached.status).toBe(201);
    expect(attached.body.data).toMatchObject({ last4: '0002', country: 'NG', isDefault: true });
    const again = await call(merchant, 'POST', `/api/v1/business/customers/${profile.customerId}/payment-methods`, {
      token,
    });
    expect(again.status).toBe(400);
    expect(again.body.error.errors.token[0]).toContain('already been used');
  });

  test('attach input: exactly one of card or token, a valid card, and nothing is saved otherwise', async () => {
    const profile = await createCustomer(merchant, { email: newEmail() });
    const path = `/api/v1/business/customers/${profile.customerId}/payment-methods`;
    const cases: Array<[unknown, string]> = [
      [{}, 'card'],
      [{ card: card(), token: 'tok_x' }, 'token'],
      [{ card: { ...card(), number: '4242424242424241' } }, 'card.number'],
      [{ card: { ...card(), expiryYear: 2020 } }, 'card.expiryYear'],
      [{ token: 'tok_unknown' }, 'token'],
    ];
    for (const [body, field] of cases) {
      const response = await call(merchant, 'POST', path, body);
      expect(response.status).toBe(400);
      expect(response.body.error.errors).toHaveProperty([field]);
    }
    expect(
      (
        await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM payment_methods WHERE customer_id = $1`, [
          profile.customerId,
        ])
      )[0].n,
    ).toBe(0);
  });

  test('detaching the default card makes the newest remaining card the default; set default chooses one', async () => {
    const email = newEmail();
    const profile = await createCustomer(merchant, { email });
    await pay(merchant, email);
    const path = `/api/v1/business/customers/${profile.customerId}/payment-methods`;
    const ids: string[] = [];
    for (const number of [CARDS.visa, CARDS.gb, CARDS.mastercard])
      ids.push((await call(merchant, 'POST', path, { card: card(number) })).body.data.id);
    const chosen = await call(merchant, 'POST', `${path}/${ids[1]}/default`);
    expect(chosen.status).toBe(200);
    expect(chosen.body.data.defaultPaymentMethod.id).toBe(ids[1]);
    const detached = await call(merchant, 'DELETE', `${path}/${ids[1]}`);
    expect(detached.body.data).toEqual({
      id: ids[1],
      object: 'payment_method',
      customerId: profile.customerId,
      deleted: true,
    });
    const read = await call(merchant, 'GET', `/api/v1/business/customers/${profile.customerId}`);
    expect(read.body.data.paymentMethods.map((method: { id: string }) => method.id)).toEqual([ids[2], ids[0]]);
    expect(read.body.data.defaultPaymentMethod.id).toBe(ids[2]);
    for (const id of ids.slice(0, 2)) await call(merchant, 'DELETE', `${path}/${id}`);
    await call(merchant, 'DELETE', `${path}/${ids[2]}`);
    const empty = await call(merchant, 'GET', `/api/v1/business/customers/${profile.customerId}`);
    expect(empty.body.data).toMatchObject({ paymentMethods: [], defaultPaymentMethod: null });
  });

  test("another customer's card cannot be detached or made default (404)", async () => {
    const mine = await createCustomer(merchant, { email: newEmail() });
    const theirs = await createCustomer(merchant, { email: newEmail() });
    const method = (
      await call(merchant, 'POST', `/api/v1/business/customers/${theirs.customerId}/payment-methods`, { card: card() })
    ).body.data;
    expect(
      (
        await call(
          merchant,
          'POST',
          `/api/v1/business/customers/${mine.customerId}/payment-methods/${method.id}/default`,
        )
      ).status,
    ).toBe(404);
    expect(
      (await call(merchant, 'DELETE', `/api/v1/business/customers/${mine.customerId}/payment-methods/${method.id}`))
        .status,
    ).toBe(404);
    expect(
      (await call(merchant, 'DELETE', `/api/v1/business/customers/${mine.customerId}/payment-methods/nope`)).status,
    ).toBe(404);
  });

  test('charging a saved card by paymentMethodId links the payment to the customer and the card', async () => {
    const email = newEmail();
    const profile = await createCustomer(merchant, { email });
    const method = (
      await call(merchant, 'POST', `/api/v1/business/customers/${profile.customerId}/payment-methods`, {
        card: card(CARDS.gb),
      })
    ).body.data;
    const payment = await charge(server, merchant.apiKey, { amount: 30, currency: 'usd', paymentMethodId: method.id });
    expect(payment).toMatchObject({
      status: 'COMPLETED',
      email,
      customerId: profile.customerId,
      paymentMethodId: method.id,
      cardLast4: '0000',
      cardCountry: 'GB',
    });
    const read = await call(merchant, 'GET', `/api/v1/business/customers/${profile.customerId}`);
    expect(read.body.data.recentPayments[0]).toMatchObject({ paymentId: payment.id, paymentMethodId: method.id });
  });

  test('a paymentMethodId that is not a saved card of this business is 400 on paymentMethodId', async () => {
    const other = await server.signUp();
    const theirs = await createCustomer(other, { email: newEmail() });
    const method = (
      await call(other, 'POST', `/api/v1/business/customers/${theirs.customerId}/payment-methods`, { card: card() })
    ).body.data;
    for (const paymentMethodId of [method.id, 'pm_nope']) {
      await expect(
        charge(server, merchant.apiKey, { amount: 10, currency: 'usd', paymentMethodId }),
      ).rejects.toMatchObject({
        code: ErrorCode.VALIDATION_ERROR,
        fieldErrors: { paymentMethodId: expect.any(Array) },
      });
    }
  });

  test('a VIEWER may read customers but not create or change them', async () => {
    const viewer = await server.signUp();
    await server.addTeamMember(merchant, viewer, 'VIEWER');
    const headers = { authorization: `Bearer ${viewer.token}`, 'x-service-business-id': merchant.businessId };
    expect((await server.request('GET', '/api/v1/business/customers', { headers })).status).toBe(200);
    const created = await server.request('POST', '/api/v1/business/customers', {
      headers,
      body: { email: newEmail() },
    });
    expect(created.status).toBe(403);
  });
});
