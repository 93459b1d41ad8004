import { TestMerchant, TestServer, startTestServer } from './support/harness';
import { CARDS, api, cardForm, eventsOf, page, pathOf } from './support/checkout';

const SESSION = `id status amount { amount amountMinor currency } customerEmail description successUrl cancelUrl checkoutUrl source sourceId paymentId metadata mode expiresAt completedAt`;
const LINK = `id url name description amount { amount currency } active allowRecurring recurringInterval successUrl mode deactivatedAt`;
const INVOICE = `id invoiceNumber status customerEmail items { description quantity unitAmount { amount } amount { amount } } totalAmount { amount amountMinor currency } dueDate checkoutSessionId checkoutUrl paymentId finalizedAt paidAt voidedAt`;
const GIFT = `id status paymentLinkId email amount { amount currency } interval nextChargeAt chargeCount failureCount lastPaymentId lastError`;

/** The GraphQL face of hosted checkout, payment links, invoices and recurring gifts: the same rules as REST. */
describe('checkout, payment links, invoices and recurring gifts (GraphQL)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ publicBaseUrl: 'https://pay.tessera.test' });
  });
  afterAll(async () => {
    await server.close();
  });

  const gql = (merchant: TestMerchant | string, query: string, variables: Record<string, unknown> = {}): Promise<{ status: number; body: any }> =>
    server.graphql(query, variables, { 'x-api-key': typeof merchant === 'string' ? merchant : merchant.apiKey });

  describe('checkout sessions', () => {
    test('createCheckoutSession returns the same session REST reads', async () => {
      const merchant = await server.signUp();
      const response = await gql(merchant, `mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { ${SESSION} } }`, {
        input: { amount: '12.30', currency: 'usd', customerEmail: 'p@example.com', successUrl: 'https://shop.example.com/ok', metadata: { cart: 'c1' } },
      });
      expect(response.body.errors).toBeUndefined();
      const session = response.body.data.createCheckoutSession;
      expect(session).toMatchObject({
        status: 'OPEN', amount: { amount: '12.30', amountMinor: '1230', currency: 'USD' }, customerEmail: 'p@example.com', successUrl: 'https://shop.example.com/ok',
        source: 'API', sourceId: null, paymentId: null, metadata: { cart: 'c1' }, mode: 'TEST', completedAt: null,
      });
      const rest = (await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${session.id}`)).body.data;
      expect(rest.checkoutUrl).toBe(session.checkoutUrl);
      expect(rest.expiresAt).toBe(session.expiresAt);
    });

    test('createCheckoutSession and createPaymentLink in live mode are UNPROCESSABLE while no live acquirer is configured; nothing is written', async () => {
      const merchant = await server.signUp();
      const live = await server.graphql('mutation { createLiveCredentials { credentials { apiKey } } }', {}, { authorization: `Bearer ${merchant.token}` });
      const liveKey = live.body.data.createLiveCredentials.credentials.apiKey;
      const session = await gql(liveKey, 'mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { id } }', {
        input: { amount: '5.00', currency: 'usd', successUrl: 'https://shop.example.com/ok' },
      });
      expect(session.body.errors?.[0]).toMatchObject({ extensions: { code: 'UNPROCESSABLE' }, message: expect.stringContaining('No card acquirer is configured for live mode') });
      const link = await gql(liveKey, 'mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { id } }', {
        input: { name: 'Ticket', amount: '5.00', currency: 'usd' },
      });
      expect(link.body.errors?.[0].extensions.code).toBe('UNPROCESSABLE');
      const rows = await server.runtime.dataSource.query(
        `SELECT (SELECT count(*)::int FROM checkout_sessions WHERE business_id = $1) AS sessions, (SELECT count(*)::int FROM payment_links WHERE business_id = $1) AS links`,
        [merchant.businessId]);
      expect(rows[0]).toEqual({ sessions: 0, links: 0 });
    });

    test('bad input is BAD_USER_INPUT with per-field errors, and nothing is written', async () => {
      const merchant = await server.signUp();
      const response = await gql(merchant, `mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { id } }`, {
        input: { amount: 'x', currency: 'usd', successUrl: 'not a url', customerEmail: 'nope' },
      });
      expect(response.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(Object.keys(response.body.errors[0].extensions.errors).sort()).toEqual(['amount', 'customerEmail', 'successUrl']);
      const list = await gql(merchant, `{ checkoutSessions { edges { node { id } } } }`);
      expect(list.body.data.checkoutSessions.edges).toEqual([]);
    });

    test('checkoutSessions is a cursor connection, newest first, filtered by status and source', async () => {
      const merchant = await server.signUp();
      const ids: string[] = [];
      for (const amount of ['1', '2', '3']) {
        const created = await gql(merchant, `mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { id checkoutUrl } }`, {
          input: { amount, currency: 'usd', customerEmail: 'p@example.com', successUrl: 'https://a.example/ok' },
        });
        ids.push(created.body.data.createCheckoutSession.id);
        if (amount === '1') await page(server, 'POST', pathOf(created.body.data.createCheckoutSession.checkoutUrl), cardForm(CARDS.success));
      }
      const first = await gql(merchant, `{ checkoutSessions(first: 2) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`);
      expect(first.body.data.checkoutSessions.edges.map((edge: any) => edge.node.id)).toEqual([ids[2], ids[1]]);
      const rest = await gql(merchant, `query($after: String) { checkoutSessions(first: 2, after: $after) { edges { node { id } } pageInfo { hasNextPage } } }`,
        { after: first.body.data.checkoutSessions.pageInfo.endCursor });
      expect(rest.body.data.checkoutSessions.edges.map((edge: any) => edge.node.id)).toEqual([ids[0]]);
      const completed = await gql(merchant, `{ checkoutSessions(status: COMPLETED, source: API) { edges { node { id status paymentId } } } }`);
      expect(completed.body.data.checkoutSessions.edges).toEqual([{ node: { id: ids[0], status: 'COMPLETED', paymentId: expect.any(String) } }]);
    });

    test("another business's session answers NOT_FOUND", async () => {
      const owner = await server.signUp();
      const other = await server.signUp();
      const created = await gql(owner, `mutation { createCheckoutSession(input: { amount: "1", currency: "usd", successUrl: "https://a.example" }) { id } }`);
      const read = await gql(other, `query($id: ID!) { checkoutSession(id: $id) { id } }`, { id: created.body.data.createCheckoutSession.id });
      expect(read.body.errors[0].extensions.code).toBe('NOT_FOUND');
    });
  });

  describe('payment links', () => {
    test('create, read, list and deactivate', async () => {
      const merchant = await server.signUp();
      const created = await gql(merchant, `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { ${LINK} } }`, {
        input: { name: 'Gift', amount: '20', currency: 'usd', allowRecurring: true, recurringInterval: 'WEEKLY' },
      });
      expect(created.body.errors).toBeUndefined();
      const link = created.body.data.createPaymentLink;
      expect(link).toMatchObject({ name: 'Gift', amount: { amount: '20.00', currency: 'USD' }, active: true, allowRecurring: true, recurringInterval: 'WEEKLY', mode: 'TEST' });
      expect(link.url).toMatch(/^https:\/\/pay\.tessera\.test\/pay\/plink_test_/);
      const deactivated = await gql(merchant, `mutation($id: ID!) { deactivatePaymentLink(id: $id) { active deactivatedAt } }`, { id: link.id });
      expect(deactivated.body.data.deactivatePaymentLink).toEqual({ active: false, deactivatedAt: expect.any(String) });
      const list = await gql(merchant, `{ paymentLinks(active: false) { edges { node { id active } } } }`);
      expect(list.body.data.paymentLinks.edges).toEqual([{ node: { id: link.id, active: false } }]);
      expect((await gql(merchant, `query($id: ID!) { paymentLink(id: $id) { id } }`, { id: link.id })).body.data.paymentLink.id).toBe(link.id);
      const other = await server.signUp();
      expect((await gql(other, `query($id: ID!) { paymentLink(id: $id) { id } }`, { id: link.id })).body.errors[0].extensions.code).toBe('NOT_FOUND');
    });

    test('a visit opens a session with source PAYMENT_LINK and sourceId the link', async () => {
      const merchant = await server.signUp();
      const created = await gql(merchant, `mutation { createPaymentLink(input: { name: "Ticket", amount: "7", currency: "usd" }) { id url } }`);
      const link = created.body.data.createPaymentLink;
      await page(server, 'GET', pathOf(link.url));
      const sessions = await gql(merchant, `{ checkoutSessions(source: PAYMENT_LINK) { edges { node { source sourceId amount { amount } } } } }`);
      expect(sessions.body.data.checkoutSessions.edges).toEqual([{ node: { source: 'PAYMENT_LINK', sourceId: link.id, amount: { amount: '7.00' } } }]);
    });

    test('bad input is BAD_USER_INPUT', async () => {
      const response = await gql(await server.signUp(), `mutation { createPaymentLink(input: { name: "", amount: "0", currency: "usd" }) { id } }`);
      expect(response.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(response.body.errors[0].extensions.errors).toEqual({ name: ['must not be empty'] });
    });
  });

  describe('invoices', () => {
    test('create (DRAFT, numbered), finalize (OPEN with a session), pay, read PAID with its checkoutSession', async () => {
      const merchant = await server.signUp();
      const created = await gql(merchant, `mutation($input: CreateInvoiceInput!) { createInvoice(input: $input) { ${INVOICE} } }`, {
        input: { customerEmail: 'client@example.com', currency: 'usd', items: [{ description: 'Work', quantity: 2, unitAmount: '50' }] },
      });
      expect(created.body.errors).toBeUndefined();
      const invoice = created.body.data.createInvoice;
      expect(invoice).toMatchObject({
        invoiceNumber: 'INV-000001', status: 'DRAFT', totalAmount: { amount: '100.00', amountMinor: '10000', currency: 'USD' },
        items: [{ description: 'Work', quantity: 2, unitAmount: { amount: '50.00' }, amount: { amount: '100.00' } }], checkoutUrl: null,
      });
      const event = await eventsOf(server, merchant.businessId, 'invoice.created');
      expect(event[0].data).toEqual({ invoiceId: invoice.id, invoiceNumber: 'INV-000001', status: 'DRAFT', totalAmount: '100.00', currency: 'usd' });
      const finalized = await gql(merchant, `mutation($id: ID!) { finalizeInvoice(id: $id) { status checkoutUrl checkoutSession { id source sourceId status } } }`, { id: invoice.id });
      const open = finalized.body.data.finalizeInvoice;
      expect(open).toMatchObject({ status: 'OPEN', checkoutSession: { source: 'INVOICE', sourceId: invoice.id, status: 'OPEN' } });
      await page(server, 'POST', pathOf(open.checkoutUrl), cardForm(CARDS.success));
      const paid = await gql(merchant, `query($id: ID!) { invoice(id: $id) { status paymentId paidAt checkoutSession { status paymentId } } }`, { id: invoice.id });
      expect(paid.body.data.invoice).toMatchObject({ status: 'PAID', paymentId: expect.any(String), checkoutSession: { status: 'COMPLETED' } });
      expect(paid.body.data.invoice.checkoutSession.paymentId).toBe(paid.body.data.invoice.paymentId);
      const voided = await gql(merchant, `mutation($id: ID!) { voidInvoice(id: $id) { status } }`, { id: invoice.id });
      expect(voided.body.errors[0].extensions.code).toBe('CONFLICT');
    });

    test('invoices lists newest first, filters by status, and each invoice resolves its session', async () => {
      const merchant = await server.signUp();
      for (let index = 0; index < 3; index++) {
        const created = await gql(merchant, `mutation { createInvoice(input: { customerEmail: "c@example.com", currency: "usd", amount: "5" }) { id } }`);
        await gql(merchant, `mutation($id: ID!) { finalizeInvoice(id: $id) { id } }`, { id: created.body.data.createInvoice.id });
      }
      const list = await gql(merchant, `{ invoices(status: OPEN) { edges { node { invoiceNumber checkoutSession { status } } } } }`);
      expect(list.body.data.invoices.edges.map((edge: any) => edge.node)).toEqual([
        { invoiceNumber: 'INV-000003', checkoutSession: { status: 'OPEN' } },
        { invoiceNumber: 'INV-000002', checkoutSession: { status: 'OPEN' } },
        { invoiceNumber: 'INV-000001', checkoutSession: { status: 'OPEN' } },
      ]);
      expect((await gql(merchant, `{ invoices(status: PAID) { edges { node { id } } } }`)).body.data.invoices.edges).toEqual([]);
    });

    test('a voided invoice, and NOT_FOUND across businesses', async () => {
      const merchant = await server.signUp();
      const created = await gql(merchant, `mutation { createInvoice(input: { customerEmail: "c@example.com", currency: "usd", amount: "5" }) { id } }`);
      const id = created.body.data.createInvoice.id;
      expect((await gql(merchant, `mutation($id: ID!) { voidInvoice(id: $id) { status voidedAt } }`, { id })).body.data.voidInvoice.status).toBe('VOID');
      const other = await server.signUp();
      expect((await gql(other, `mutation($id: ID!) { finalizeInvoice(id: $id) { id } }`, { id })).body.errors[0].extensions.code).toBe('NOT_FOUND');
    });
  });

  describe('recurring gifts', () => {
    test('list, read with its paymentLink, charge now, cancel and resume', async () => {
      const merchant = await server.signUp();
      const link = (await gql(merchant, `mutation { createPaymentLink(input: { name: "Gift", amount: "3", currency: "usd", allowRecurring: true }) { id url } }`)).body.data.createPaymentLink;
      const visit = await page(server, 'GET', pathOf(link.url));
      await page(server, 'POST', pathOf(visit.location!), cardForm(CARDS.success, { email: 'donor@example.com', recurring: 'on' }));
      const list = await gql(merchant, `query($link: ID) { recurringGifts(paymentLinkId: $link, status: ACTIVE) { edges { node { ${GIFT} paymentLink { id name } } } } }`, { link: link.id });
      const [{ node: gift }] = list.body.data.recurringGifts.edges;
      expect(gift).toMatchObject({ status: 'ACTIVE', paymentLinkId: link.id, email: 'donor@example.com', amount: { amount: '3.00', currency: 'USD' }, interval: 'MONTHLY', chargeCount: 0, paymentLink: { id: link.id, name: 'Gift' } });
      const charged = await gql(merchant, `mutation($id: ID!) { sandboxChargeRecurringGift(id: $id) { chargeCount failureCount lastPaymentId } }`, { id: gift.id });
      expect(charged.body.data.sandboxChargeRecurringGift).toMatchObject({ chargeCount: 1, failureCount: 0 });
      const events = await eventsOf(server, merchant.businessId, 'recurring_gift.charge.succeeded');
      expect(events[0].data).toEqual({
        recurringGiftId: gift.id, paymentLinkId: link.id, amount: '3.00', currency: 'usd', chargeCount: 1, paymentIntentId: charged.body.data.sandboxChargeRecurringGift.lastPaymentId,
      });
      const resumedActive = await gql(merchant, `mutation($id: ID!) { resumeRecurringGift(id: $id) { status } }`, { id: gift.id });
      expect(resumedActive.body.data.resumeRecurringGift.status).toBe('ACTIVE');
      const cancelled = await gql(merchant, `mutation($id: ID!) { cancelRecurringGift(id: $id) { status nextChargeAt } }`, { id: gift.id });
      expect(cancelled.body.data.cancelRecurringGift).toEqual({ status: 'CANCELLED', nextChargeAt: null });
      const resume = await gql(merchant, `mutation($id: ID!) { resumeRecurringGift(id: $id) { status } }`, { id: gift.id });
      expect(resume.body.errors[0].extensions.code).toBe('CONFLICT');
      const read = await gql(merchant, `query($id: ID!) { recurringGift(id: $id) { status } }`, { id: gift.id });
      expect(read.body.data.recurringGift.status).toBe('CANCELLED');
      const other = await server.signUp();
      expect((await gql(other, `query($id: ID!) { recurringGift(id: $id) { id } }`, { id: gift.id })).body.errors[0].extensions.code).toBe('NOT_FOUND');
    });

    test('related payment links of a page of gifts are loaded with one query', async () => {
      const merchant = await server.signUp();
      const link = (await gql(merchant, `mutation { createPaymentLink(input: { name: "Gift", amount: "3", currency: "usd", allowRecurring: true }) { url } }`)).body.data.createPaymentLink;
      for (const email of ['a@example.com', 'b@example.com']) {
        const visit = await page(server, 'GET', pathOf(link.url));
        await page(server, 'POST', pathOf(visit.location!), cardForm(CARDS.success, { email, recurring: 'on' }));
      }
      const loader = server.runtime.core.paymentLinks;
      const spy = jest.spyOn(loader, 'byIds');
      const list = await gql(merchant, `{ recurringGifts { edges { node { email paymentLink { name } } } } }`);
      expect(list.body.data.recurringGifts.edges).toHaveLength(2);
      expect(spy).toHaveBeenCalledTimes(1);
      spy.mockRestore();
    });
  });
});
