import { TestServer, startTestServer } from './support/harness';
import { CARDS, api, cardForm, eventsOf, page, pathOf } from './support/checkout';

const tomorrow = () => new Date(Date.now() + 24 * 3600 * 1000).toISOString().slice(0, 10);

/** Invoices: DRAFT with a sequential number → OPEN with a checkout session → PAID through it; or VOID. */
describe('invoices (REST)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ publicBaseUrl: 'https://pay.tessera.test' });
  });
  afterAll(async () => {
    await server.close();
  });

  test('create with items answers 201 as DRAFT numbered INV-000001, and emits invoice.created', async () => {
    const merchant = await server.signUp();
    const due = tomorrow();
    const response = await api(server, merchant)('POST', '/api/v1/business/invoices', {
      customerEmail: 'Client@Example.com',
      currency: 'USD',
      dueDate: due,
      description: 'October work',
      items: [
        { description: 'Design', quantity: 3, unitAmount: '100.25' },
        { description: 'Hosting', unitAmount: 9.5 },
      ],
    });
    expect(response.status).toBe(201);
    const invoice = response.body.data;
    expect(invoice).toMatchObject({
      object: 'invoice',
      invoiceNumber: 'INV-000001',
      status: 'DRAFT',
      customerEmail: 'client@example.com',
      currency: 'usd',
      dueDate: due,
      totalAmount: '310.25',
      totalAmountMinor: '31025',
      description: 'October work',
      checkoutSessionId: null,
      checkoutUrl: null,
      paymentId: null,
      items: [
        { description: 'Design', quantity: 3, unitAmount: '100.25', amount: '300.75' },
        { description: 'Hosting', quantity: 1, unitAmount: '9.50', amount: '9.50' },
      ],
    });
    const events = await eventsOf(server, merchant.businessId, 'invoice.created');
    expect(events.map((event) => event.data)).toEqual([
      { invoiceId: invoice.id, invoiceNumber: 'INV-000001', status: 'DRAFT', totalAmount: '310.25', currency: 'usd' },
    ]);
  });

  test('create with a single amount', async () => {
    const response = await api(server, await server.signUp())('POST', '/api/v1/business/invoices', {
      customerEmail: 'c@example.com',
      currency: 'eur',
      amount: 40,
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      totalAmount: '40.00',
      items: [{ description: 'Amount due', quantity: 1, unitAmount: '40.00', amount: '40.00' }],
    });
  });

  test('bad input is a 400 with per-field errors and takes no number', async () => {
    const merchant = await server.signUp();
    const call = api(server, merchant);
    const response = await call('POST', '/api/v1/business/invoices', {
      customerEmail: 'nope',
      currency: 'usd',
      dueDate: '2001-01-01',
      items: [{ description: '', quantity: 0, unitAmount: 1 }],
    });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.error.errors).sort()).toEqual([
      'customerEmail',
      'dueDate',
      'items.0.description',
      'items.0.quantity',
    ]);
    const both = await call('POST', '/api/v1/business/invoices', {
      customerEmail: 'c@example.com',
      currency: 'usd',
      amount: 1,
      items: [{ description: 'x', unitAmount: 1 }],
    });
    expect(both.body.error.errors).toEqual({ _: ['send either items or amount (exactly one)'] });
    const neither = await call('POST', '/api/v1/business/invoices', {
      customerEmail: 'c@example.com',
      currency: 'usd',
    });
    expect(neither.status).toBe(400);
    const unit = await call('POST', '/api/v1/business/invoices', {
      customerEmail: 'c@example.com',
      currency: 'jpy',
      items: [{ description: 'x', unitAmount: '1.5' }],
    });
    expect(unit.body.error.errors).toEqual({ 'items.0.unitAmount': ['JPY allows at most 0 decimal places'] });
    const badDate = await call('POST', '/api/v1/business/invoices', {
      customerEmail: 'c@example.com',
      currency: 'usd',
      amount: 1,
      dueDate: '2030-02-30',
    });
    expect(badDate.body.error.errors).toEqual({ dueDate: ['must be a date (YYYY-MM-DD)'] });
    const created = await call('POST', '/api/v1/business/invoices', {
      customerEmail: 'c@example.com',
      currency: 'usd',
      amount: 1,
    });
    expect(created.body.data.invoiceNumber).toBe('INV-000001');
  });

  test('numbers are sequential per business and mode, without gaps or duplicates under concurrency', async () => {
    const merchant = await server.signUp();
    const other = await server.signUp();
    const call = api(server, merchant);
    const created = await Promise.all(
      Array.from({ length: 12 }, () =>
        call('POST', '/api/v1/business/invoices', { customerEmail: 'c@example.com', currency: 'usd', amount: 1 }),
      ),
    );
    expect(created.every((response) => response.status === 201)).toBe(true);
    const numbers = created.map((response) => response.body.data.invoiceNumber).sort();
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, index) => `INV-${String(index + 1).padStart(6, '0')}`));
    const otherFirst = await api(server, other)('POST', '/api/v1/business/invoices', {
      customerEmail: 'c@example.com',
      currency: 'usd',
      amount: 1,
    });
    expect(otherFirst.body.data.invoiceNumber).toBe('INV-000001');
    const live = await server.graphql(
      'mutation { createLiveCredentials { credentials { apiKey } } }',
      {},
      { authorization: `Bearer ${merchant.token}` },
    );
    const liveInvoice = await api(server, live.body.data.createLiveCredentials.credentials.apiKey)(
      'POST',
      '/api/v1/business/invoices',
      { customerEmail: 'c@example.com', currency: 'usd', amount: 1 },
    );
    expect(liveInvoice.body.data).toMatchObject({ invoiceNumber: 'INV-000001', livemode: true });
  });

  test('lifecycle: finalize (send) → OPEN with a checkout session (source invoice) → paid on the page → PAID with invoice.paid', async () => {
    const merchant = await server.signUp();
    const call = api(server, merchant);
    const invoice = (
      await call('POST', '/api/v1/business/invoices', {
        customerEmail: 'client@example.com',
        currency: 'usd',
        amount: '99.99',
      })
    ).body.data;
    const sent = await call('POST', `/api/v1/business/invoices/${invoice.id}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({
      status: 'OPEN',
      checkoutSessionId: expect.any(String),
      finalizedAt: expect.any(String),
    });
    expect(sent.body.data.checkoutUrl).toMatch(/^https:\/\/pay\.tessera\.test\/checkout\/cs_test_/);
    const again = await call('POST', `/api/v1/business/invoices/${invoice.id}/finalize`);
    expect(again.body.data.checkoutSessionId).toBe(sent.body.data.checkoutSessionId);
    const session = (await call('GET', `/api/v1/business/checkout/sessions/${sent.body.data.checkoutSessionId}`)).body
      .data;
    expect(session).toMatchObject({
      source: 'invoice',
      sourceId: invoice.id,
      amount: '99.99',
      customerEmail: 'client@example.com',
      status: 'OPEN',
    });

    const form = await page(server, 'GET', pathOf(sent.body.data.checkoutUrl));
    expect(form.body).toContain(`Invoice ${invoice.invoiceNumber}`);
    const paid = await page(server, 'POST', pathOf(sent.body.data.checkoutUrl), cardForm(CARDS.success));
    expect(paid.status).toBe(303);
    const read = (await call('GET', `/api/v1/business/invoices/${invoice.id}`)).body.data;
    expect(read).toMatchObject({ status: 'PAID', paymentId: expect.any(String), paidAt: expect.any(String) });
    const events = await eventsOf(server, merchant.businessId, 'invoice.paid');
    expect(events.map((event) => event.data)).toEqual([
      { invoiceId: invoice.id, invoiceNumber: invoice.invoiceNumber, sessionId: session.id, paymentId: read.paymentId },
    ]);
    const completed = await eventsOf(server, merchant.businessId, 'payment_link.session.completed');
    expect(completed[0].data).toMatchObject({
      sessionId: session.id,
      source: 'invoice',
      sourceId: invoice.id,
      status: 'COMPLETED',
      amount: '99.99',
      currency: 'usd',
    });
    const voided = await call('POST', `/api/v1/business/invoices/${invoice.id}/void`);
    expect(voided.status).toBe(409);
    expect((await call('POST', `/api/v1/business/invoices/${invoice.id}/finalize`)).status).toBe(409);
  });

  test('live mode without a live acquirer: sending an invoice is refused (422, as live charges are); it stays DRAFT, with no session and no event', async () => {
    const merchant = await server.signUp();
    const live = await server.graphql(
      'mutation { createLiveCredentials { credentials { apiKey } } }',
      {},
      { authorization: `Bearer ${merchant.token}` },
    );
    const liveCall = api(server, live.body.data.createLiveCredentials.credentials.apiKey);
    const invoice = (
      await liveCall('POST', '/api/v1/business/invoices', {
        customerEmail: 'client@example.com',
        currency: 'usd',
        amount: 10,
      })
    ).body.data;
    expect(invoice).toMatchObject({ status: 'DRAFT', livemode: true });
    for (const action of ['finalize', 'send']) {
      const refused = await liveCall('POST', `/api/v1/business/invoices/${invoice.id}/${action}`);
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({
        code: 'UNPROCESSABLE',
        message: expect.stringContaining('No card acquirer is configured for live mode'),
      });
    }
    expect((await liveCall('GET', `/api/v1/business/invoices/${invoice.id}`)).body.data).toMatchObject({
      status: 'DRAFT',
      checkoutSessionId: null,
      checkoutUrl: null,
    });
    const [{ n }] = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS n FROM checkout_sessions WHERE business_id = $1`,
      [merchant.businessId],
    );
    expect(n).toBe(0);
    expect(await eventsOf(server, merchant.businessId, 'invoice.finalized')).toEqual([]);
  });

  test('voiding an OPEN invoice withdraws its checkout session (the page answers 410); a DRAFT can be voided too', async () => {
    const merchant = await server.signUp();
    const call = api(server, merchant);
    const invoice = (
      await call('POST', '/api/v1/business/invoices', {
        customerEmail: 'client@example.com',
        currency: 'usd',
        amount: 5,
      })
    ).body.data;
    const sent = (await call('POST', `/api/v1/business/invoices/${invoice.id}/finalize`)).body.data;
    const voided = await call('POST', `/api/v1/business/invoices/${invoice.id}/void`);
    expect(voided.body.data).toMatchObject({ status: 'VOID', voidedAt: expect.any(String) });
    expect((await call('GET', `/api/v1/business/checkout/sessions/${sent.checkoutSessionId}`)).body.data.status).toBe(
      'EXPIRED',
    );
    expect((await page(server, 'POST', pathOf(sent.checkoutUrl), cardForm(CARDS.success))).status).toBe(410);
    expect((await call('POST', `/api/v1/business/invoices/${invoice.id}/finalize`)).status).toBe(409);
    const draft = (
      await call('POST', '/api/v1/business/invoices', {
        customerEmail: 'client@example.com',
        currency: 'usd',
        amount: 5,
      })
    ).body.data;
    expect((await call('POST', `/api/v1/business/invoices/${draft.id}/void`)).body.data.status).toBe('VOID');
  });

  test('list (newest first, status filter), read, and tenancy 404s', async () => {
    const merchant = await server.signUp();
    const other = await server.signUp();
    const call = api(server, merchant);
    const first = (
      await call('POST', '/api/v1/business/invoices', { customerEmail: 'c@example.com', currency: 'usd', amount: 1 })
    ).body.data;
    const second = (
      await call('POST', '/api/v1/business/invoices', { customerEmail: 'c@example.com', currency: 'usd', amount: 2 })
    ).body.data;
    await call('POST', `/api/v1/business/invoices/${first.id}/finalize`);
    const list = (await call('GET', '/api/v1/business/invoices')).body.data;
    expect(list.items.map((invoice: any) => invoice.id)).toEqual([second.id, first.id]);
    expect(
      (await call('GET', '/api/v1/business/invoices?status=OPEN')).body.data.items.map((invoice: any) => invoice.id),
    ).toEqual([first.id]);
    expect((await call('GET', '/api/v1/business/invoices?status=LATE')).status).toBe(400);
    for (const status of ['open', 'Open']) {
      expect(
        (await call('GET', `/api/v1/business/invoices?status=${status}`)).body.data.items.map(
          (invoice: any) => invoice.id,
        ),
      ).toEqual([first.id]);
    }
    for (const [method, path] of [
      ['GET', ''],
      ['POST', '/finalize'],
      ['POST', '/void'],
    ]) {
      expect((await api(server, other)(method, `/api/v1/business/invoices/${first.id}${path}`)).status).toBe(404);
    }
  });
});
