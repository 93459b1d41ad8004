import { TestServer, startTestServer } from './support/harness';
import { CARDS, api, cardForm, eventsOf, page, pathOf } from './support/checkout';

const LINK_FIELDS = [
  'id',
  'object',
  'url',
  'name',
  'description',
  'amount',
  'amountMinor',
  'currency',
  'active',
  'allowRecurring',
  'recurringInterval',
  'successUrl',
  'metadata',
  'deactivatedAt',
  'livemode',
  'createdAt',
  'updatedAt',
].sort();

/** Payment links: a fixed amount behind a public URL; every visit opens a new checkout session. */
describe('payment links (REST)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ publicBaseUrl: 'https://pay.tessera.test' });
  });
  afterAll(async () => {
    await server.close();
  });

  test('create answers 201 with the link and its public /pay/ URL', async () => {
    const merchant = await server.signUp();
    const response = await api(server, merchant)('POST', '/api/v1/business/payment-links', {
      name: 'Annual membership',
      description: 'One year',
      amount: '120',
      currency: 'GBP',
      successUrl: 'https://club.example.com/welcome',
      metadata: { plan: 'annual' },
    });
    expect(response.status).toBe(201);
    const link = response.body.data;
    expect(Object.keys(link).sort()).toEqual(LINK_FIELDS);
    expect(link).toMatchObject({
      object: 'payment_link',
      name: 'Annual membership',
      description: 'One year',
      amount: '120.00',
      amountMinor: '12000',
      currency: 'gbp',
      active: true,
      allowRecurring: false,
      recurringInterval: null,
      successUrl: 'https://club.example.com/welcome',
      metadata: { plan: 'annual' },
      deactivatedAt: null,
      livemode: false,
    });
    expect(link.url).toMatch(/^https:\/\/pay\.tessera\.test\/pay\/plink_test_[A-Za-z0-9_-]{22}$/);
  });

  test('allowRecurring defaults the interval to monthly; weekly may be chosen; an interval without allowRecurring is refused', async () => {
    const call = api(server, await server.signUp());
    const monthly = await call('POST', '/api/v1/business/payment-links', {
      name: 'Gift',
      amount: 10,
      currency: 'usd',
      allowRecurring: true,
    });
    expect(monthly.body.data).toMatchObject({ allowRecurring: true, recurringInterval: 'monthly' });
    const weekly = await call('POST', '/api/v1/business/payment-links', {
      name: 'Gift',
      amount: 10,
      currency: 'usd',
      allowRecurring: true,
      recurringInterval: 'weekly',
    });
    expect(weekly.body.data.recurringInterval).toBe('weekly');
    const refused = await call('POST', '/api/v1/business/payment-links', {
      name: 'Gift',
      amount: 10,
      currency: 'usd',
      recurringInterval: 'weekly',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.errors).toEqual({ recurringInterval: ['is only allowed with allowRecurring: true'] });
  });

  test('bad input is a 400 with per-field errors', async () => {
    const call = api(server, await server.signUp());
    const response = await call('POST', '/api/v1/business/payment-links', {
      name: '',
      amount: -1,
      currency: 'usd',
      allowRecurring: 'yes',
      recurringInterval: 'daily',
      successUrl: 'nope',
    });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.error.errors).sort()).toEqual([
      'allowRecurring',
      'amount',
      'name',
      'recurringInterval',
      'successUrl',
    ]);
    const amount = await call('POST', '/api/v1/business/payment-links', { name: 'X', amount: -1, currency: 'usd' });
    expect(amount.body.error.errors).toEqual({ amount: ['must be a positive decimal amount such as "100.50"'] });
    expect((await call('GET', '/api/v1/business/payment-links')).body.data.total).toBe(0);
  });

  test('list (newest first, active filter), read, and tenancy 404s', async () => {
    const merchant = await server.signUp();
    const other = await server.signUp();
    const call = api(server, merchant);
    const first = (await call('POST', '/api/v1/business/payment-links', { name: 'A', amount: 1, currency: 'usd' })).body
      .data;
    const second = (await call('POST', '/api/v1/business/payment-links', { name: 'B', amount: 2, currency: 'usd' }))
      .body.data;
    await call('POST', `/api/v1/business/payment-links/${first.id}/deactivate`);
    const list = await call('GET', '/api/v1/business/payment-links');
    expect(list.body.data).toMatchObject({ total: 2, page: 1, limit: 20 });
    expect(list.body.data.items.map((link: any) => link.id)).toEqual([second.id, first.id]);
    const active = await call('GET', '/api/v1/business/payment-links?active=true');
    expect(active.body.data.items.map((link: any) => link.id)).toEqual([second.id]);
    expect((await call('GET', `/api/v1/business/payment-links/${second.id}`)).body.data).toEqual(second);
    expect((await api(server, other)('GET', `/api/v1/business/payment-links/${second.id}`)).status).toBe(404);
    expect((await api(server, other)('POST', `/api/v1/business/payment-links/${second.id}/deactivate`)).status).toBe(
      404,
    );
    expect((await call('GET', '/api/v1/business/payment-links/123')).status).toBe(404);
  });

  test('each visit of the public URL opens a new checkout session (source payment_link, sourceId the link) and redirects to it', async () => {
    const merchant = await server.signUp();
    const link = (
      await api(server, merchant)('POST', '/api/v1/business/payment-links', {
        name: 'Ticket',
        amount: '15.50',
        currency: 'eur',
        successUrl: 'https://ev.example.com/ok',
      })
    ).body.data;
    const first = await page(server, 'GET', pathOf(link.url));
    const second = await page(server, 'GET', pathOf(link.url));
    expect(first.status).toBe(303);
    expect(first.location).toMatch(/^\/checkout\/cs_test_/);
    expect(second.location).not.toBe(first.location);
    const sessions = (await api(server, merchant)('GET', '/api/v1/business/checkout/sessions?source=payment_link')).body
      .data;
    expect(sessions.total).toBe(2);
    for (const session of sessions.items) {
      expect(session).toMatchObject({
        source: 'payment_link',
        sourceId: link.id,
        amount: '15.50',
        currency: 'eur',
        customerEmail: null,
        status: 'OPEN',
        description: 'Ticket',
      });
    }
    const form = await page(server, 'GET', pathOf(first.location!));
    expect(form.body).toContain('15.50 EUR');
    expect(form.body).toContain('name="email"');
    const paid = await page(
      server,
      'POST',
      pathOf(first.location!),
      cardForm(CARDS.success, { email: 'fan@example.com' }),
    );
    expect(paid.status).toBe(303);
    expect(paid.location).toMatch(/^https:\/\/ev\.example\.com\/ok\?session_id=/);
    const events = await eventsOf(server, merchant.businessId, 'payment_link.session.completed');
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({
      source: 'payment_link',
      sourceId: link.id,
      status: 'COMPLETED',
      amount: '15.50',
      currency: 'eur',
    });
  });

  test('a deactivated link shows a clear page with HTTP 410 and opens no session; deactivating twice changes nothing', async () => {
    const merchant = await server.signUp({ businessName: 'Shelter' });
    const call = api(server, merchant);
    const link = (
      await call('POST', '/api/v1/business/payment-links', { name: 'Winter appeal', amount: 5, currency: 'usd' })
    ).body.data;
    const deactivated = await call('POST', `/api/v1/business/payment-links/${link.id}/deactivate`);
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.data).toMatchObject({ active: false, deactivatedAt: expect.any(String) });
    const again = await call('POST', `/api/v1/business/payment-links/${link.id}/deactivate`);
    expect(again.body.data.deactivatedAt).toBe(deactivated.body.data.deactivatedAt);
    const visit = await page(server, 'GET', pathOf(link.url));
    expect(visit.status).toBe(410);
    expect(visit.body).toContain('This payment link is no longer active');
    expect(visit.body).toContain('Winter appeal');
    expect((await call('GET', '/api/v1/business/checkout/sessions')).body.data.total).toBe(0);
  });

  test('live mode without a live acquirer: creating a link is refused (422, as live charges are) and a live link opens no session; nothing is written', async () => {
    const merchant = await server.signUp();
    const live = await server.graphql(
      'mutation { createLiveCredentials { credentials { apiKey } } }',
      {},
      { authorization: `Bearer ${merchant.token}` },
    );
    const liveCall = api(server, live.body.data.createLiveCredentials.credentials.apiKey);
    const refused = await liveCall('POST', '/api/v1/business/payment-links', {
      name: 'Ticket',
      amount: 5,
      currency: 'usd',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'UNPROCESSABLE',
      message: expect.stringContaining('No card acquirer is configured for live mode'),
    });
    const count = async (table: string) =>
      (
        await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`, [
          merchant.businessId,
        ])
      )[0].n;
    expect(await count('payment_links')).toBe(0);
    // A live link that exists already (made while an acquirer was configured) opens no session either.
    const token = `plink_live_${'b'.repeat(22)}`;
    await server.runtime.dataSource.query(
      `INSERT INTO payment_links (business_id, livemode, token, name, amount, currency) VALUES ($1, true, $2, 'Ticket', 500, 'USD')`,
      [merchant.businessId, token],
    );
    const visit = await page(server, 'GET', `/pay/${token}`);
    expect(visit.status).toBe(422);
    expect(visit.location).toBeNull();
    expect(await count('checkout_sessions')).toBe(0);
  });

  test('an unknown link token answers 404', async () => {
    expect((await page(server, 'GET', `/pay/plink_test_${'a'.repeat(22)}`)).status).toBe(404);
  });
});
