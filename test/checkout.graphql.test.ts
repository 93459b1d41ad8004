import { RequestContext } from '../src/domain/shared/context';
import { TestMerchant, TestServer, collect, startTestServer } from './support/harness';
import { CARDS, api, cardForm, createSession, eventsOf, page, pathOf } from './support/checkout';

const SESSION = `id status amount { amount amountMinor currency } customerEmail description successUrl cancelUrl checkoutUrl source sourceId paymentId metadata mode expiresAt completedAt`;
const LINK = `id url name description amount { amount currency } active allowRecurring recurringInterval successUrl mode deactivatedAt`;
const INVOICE = `id invoiceNumber status customerEmail items { description quantity unitAmount { amount } amount { amount } } totalAmount { amount amountMinor currency } dueDate checkoutSessionId checkoutUrl paymentId finalizedAt paidAt voidedAt`;
const GIFT = `id status paymentLinkId email amount { amount currency } interval nextChargeAt chargeCount failureCount lastPaymentId lastError`;
const USER_ERRORS = 'userErrors { field message code }';

/** The GraphQL face of hosted checkout, payment links, invoices and recurring gifts: the same rules as REST. */
describe('checkout, payment links, invoices and recurring gifts (GraphQL)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ publicBaseUrl: 'https://pay.tessera.test' });
  });
  afterAll(async () => {
    await server.close();
  });

  const gql = (
    merchant: TestMerchant | string,
    query: string,
    variables: Record<string, unknown> = {},
  ): Promise<{ status: number; body: any }> =>
    server.graphql(query, variables, { 'x-api-key': typeof merchant === 'string' ? merchant : merchant.apiKey });

  describe('checkout sessions', () => {
    test('createCheckoutSession returns the same session REST reads', async () => {
      const merchant = await server.signUp();
      const response = await gql(
        merchant,
        `mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { checkoutSession { ${SESSION} } ${USER_ERRORS} } }`,
        {
          input: {
            amount: '12.30',
            currency: 'usd',
            customerEmail: 'p@example.com',
            successUrl: 'https://shop.example.com/ok',
            metadata: { cart: 'c1' },
          },
        },
      );
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data.createCheckoutSession.userErrors).toEqual([]);
      const session = response.body.data.createCheckoutSession.checkoutSession;
      expect(session).toMatchObject({
        status: 'OPEN',
        amount: { amount: '12.30', amountMinor: '1230', currency: 'USD' },
        customerEmail: 'p@example.com',
        successUrl: 'https://shop.example.com/ok',
        source: 'API',
        sourceId: null,
        paymentId: null,
        metadata: { cart: 'c1' },
        mode: 'TEST',
        completedAt: null,
      });
      const rest = (await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${session.id}`)).body.data;
      expect(rest.checkoutUrl).toBe(session.checkoutUrl);
      expect(rest.expiresAt).toBe(session.expiresAt);
    });

    test('createCheckoutSession and createPaymentLink in live mode are UNPROCESSABLE userErrors while no live acquirer is configured; nothing is written', async () => {
      const merchant = await server.signUp();
      const live = await server.graphql(
        'mutation { createLiveCredentials { credentials { apiKey } } }',
        {},
        { authorization: `Bearer ${merchant.token}` },
      );
      const liveKey = live.body.data.createLiveCredentials.credentials.apiKey;
      const session = await gql(
        liveKey,
        `mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { checkoutSession { id } ${USER_ERRORS} } }`,
        {
          input: { amount: '5.00', currency: 'usd', successUrl: 'https://shop.example.com/ok' },
        },
      );
      expect(session.body.errors).toBeUndefined();
      expect(session.body.data.createCheckoutSession).toEqual({
        checkoutSession: null,
        userErrors: [
          {
            field: null,
            message: expect.stringContaining('No card acquirer is configured for live mode'),
            code: 'UNPROCESSABLE',
          },
        ],
      });
      const link = await gql(
        liveKey,
        `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { paymentLink { id } ${USER_ERRORS} } }`,
        {
          input: { name: 'Ticket', amount: '5.00', currency: 'usd' },
        },
      );
      expect(link.body.data.createPaymentLink).toEqual({
        paymentLink: null,
        userErrors: [{ field: null, message: expect.any(String), code: 'UNPROCESSABLE' }],
      });
      const rows = await server.runtime.dataSource.query(
        `SELECT (SELECT count(*)::int FROM checkout_sessions WHERE business_id = $1) AS sessions, (SELECT count(*)::int FROM payment_links WHERE business_id = $1) AS links`,
        [merchant.businessId],
      );
      expect(rows[0]).toEqual({ sessions: 0, links: 0 });
    });

    test('bad input is VALIDATION_ERROR userErrors on each input field, and nothing is written', async () => {
      const merchant = await server.signUp();
      const response = await gql(
        merchant,
        `mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { checkoutSession { id } ${USER_ERRORS} } }`,
        {
          input: { amount: 'x', currency: 'usd', successUrl: 'not a url', customerEmail: 'nope' },
        },
      );
      expect(response.body.errors).toBeUndefined();
      const { checkoutSession, userErrors } = response.body.data.createCheckoutSession;
      expect(checkoutSession).toBeNull();
      expect(userErrors.map((userError: any) => userError.field.join('.')).sort()).toEqual([
        'input.amount',
        'input.customerEmail',
        'input.successUrl',
      ]);
      expect(
        userErrors.every((userError: any) => userError.code === 'VALIDATION_ERROR' && userError.message.length > 0),
      ).toBe(true);
      const list = await gql(merchant, `{ checkoutSessions { edges { node { id } } } }`);
      expect(list.body.data.checkoutSessions.edges).toEqual([]);
    });

    test('checkoutSessions is a cursor connection, newest first, filtered by status and source', async () => {
      const merchant = await server.signUp();
      const ids: string[] = [];
      for (const amount of ['1', '2', '3']) {
        const created = await gql(
          merchant,
          `mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { checkoutSession { id checkoutUrl } } }`,
          {
            input: { amount, currency: 'usd', customerEmail: 'p@example.com', successUrl: 'https://a.example/ok' },
          },
        );
        const session = created.body.data.createCheckoutSession.checkoutSession;
        ids.push(session.id);
        if (amount === '1') await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.success));
      }
      const first = await gql(
        merchant,
        `{ checkoutSessions(first: 2) { edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
      );
      const firstPage = first.body.data.checkoutSessions;
      expect(firstPage.edges.map((edge: any) => edge.node.id)).toEqual([ids[2], ids[1]]);
      expect(firstPage.pageInfo).toEqual({
        hasNextPage: true,
        hasPreviousPage: false,
        startCursor: firstPage.edges[0].cursor,
        endCursor: firstPage.edges[1].cursor,
      });
      const rest = await gql(
        merchant,
        `query($after: String) { checkoutSessions(first: 2, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
        { after: firstPage.pageInfo.endCursor },
      );
      expect(rest.body.data.checkoutSessions.edges.map((edge: any) => edge.node.id)).toEqual([ids[0]]);
      const lastCursor = rest.body.data.checkoutSessions.edges[0].cursor;
      expect(rest.body.data.checkoutSessions.pageInfo).toEqual({
        hasNextPage: false,
        hasPreviousPage: true,
        startCursor: lastCursor,
        endCursor: lastCursor,
      });
      const completed = await gql(
        merchant,
        `{ checkoutSessions(status: COMPLETED, source: API) { edges { node { id status paymentId } } } }`,
      );
      expect(completed.body.data.checkoutSessions.edges).toEqual([
        { node: { id: ids[0], status: 'COMPLETED', paymentId: expect.any(String) } },
      ]);
    });

    test('an explicit null filter (a client\'s "any") answers as if it were left out, for every list of this area', async () => {
      const merchant = await server.signUp();
      await gql(
        merchant,
        `mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { checkoutSession { id } } }`,
        { input: { amount: '4', currency: 'usd', successUrl: 'https://a.example/ok' } },
      );
      await gql(
        merchant,
        `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { paymentLink { id } } }`,
        { input: { name: 'Tip', amount: '3', currency: 'usd' } },
      );
      await gql(merchant, `mutation($input: CreateInvoiceInput!) { createInvoice(input: $input) { invoice { id } } }`, {
        input: { customerEmail: 'c@example.com', currency: 'usd', amount: '9' },
      });
      const response = await gql(
        merchant,
        `query($status: CheckoutSessionStatus, $source: CheckoutSessionSource, $active: Boolean, $invoiceStatus: InvoiceStatus, $giftStatus: RecurringGiftStatus, $linkId: ID) {
          checkoutSessions(status: $status, source: $source) { edges { node { id } } }
          paymentLinks(active: $active) { edges { node { id } } }
          invoices(status: $invoiceStatus) { edges { node { id } } }
          recurringGifts(status: $giftStatus, paymentLinkId: $linkId) { edges { node { id } } }
        }`,
        { status: null, source: null, active: null, invoiceStatus: null, giftStatus: null, linkId: null },
      );
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data.checkoutSessions.edges).toHaveLength(1);
      expect(response.body.data.paymentLinks.edges).toHaveLength(1);
      expect(response.body.data.invoices.edges).toHaveLength(1);
      expect(response.body.data.recurringGifts.edges).toEqual([]);
    });

    test("another business's session answers NOT_FOUND", async () => {
      const owner = await server.signUp();
      const other = await server.signUp();
      const created = await gql(
        owner,
        `mutation { createCheckoutSession(input: { amount: "1", currency: "usd", successUrl: "https://a.example" }) { checkoutSession { id } } }`,
      );
      const read = await gql(other, `query($id: ID!) { checkoutSession(id: $id) { id } }`, {
        id: created.body.data.createCheckoutSession.checkoutSession.id,
      });
      expect(read.body.errors[0].extensions.code).toBe('NOT_FOUND');
    });
  });

  describe('checkoutSessionUpdated', () => {
    const FIELDS = '{ checkoutSession { id status paymentId } previousStatus }';
    const UPDATED = `subscription { checkoutSessionUpdated ${FIELDS} }`;

    test('a subscriber hears its session opened, then COMPLETED once the payer paid (reading COMPLETED, with its payment), and nothing of another business', async () => {
      const owner = await server.signUp();
      const other = await server.signUp();
      const mine = collect(server.subscribe({ apiKey: owner.apiKey }), UPDATED, 2);
      const theirs = collect(server.subscribe({ apiKey: other.apiKey }), UPDATED, 1);
      await Promise.all([mine.ready, theirs.ready]);

      // The other business's session first: had it leaked, it would be among the owner's messages.
      const ofOther = await createSession(server, other);
      const session = await createSession(server, owner);
      await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.success));
      const received = (await mine.done).map((message: any) => message.checkoutSessionUpdated);
      expect(received).toEqual([
        { checkoutSession: { id: session.id, status: 'OPEN', paymentId: null }, previousStatus: null },
        {
          checkoutSession: { id: session.id, status: 'COMPLETED', paymentId: expect.any(String) },
          previousStatus: 'OPEN',
        },
      ]);
      expect(await theirs.done).toEqual([
        {
          checkoutSessionUpdated: {
            checkoutSession: { id: ofOther.id, status: 'OPEN', paymentId: null },
            previousStatus: null,
          },
        },
      ]);
    });

    test('checkoutSessionUpdated(id) delivers that session only: its expiry', async () => {
      const owner = await server.signUp();
      const watched = await createSession(server, owner);
      const one = collect(
        server.subscribe({ apiKey: owner.apiKey }),
        `subscription { checkoutSessionUpdated(id: "${watched.id}") ${FIELDS} }`,
        1,
      );
      await one.ready;
      await createSession(server, owner);
      // Past its time, the expiry job's work (this server runs no job worker).
      await server.runtime.dataSource.query(`UPDATE checkout_sessions SET expires_at = now() WHERE id = $1`, [
        watched.id,
      ]);
      await server.runtime.core.checkout.expireDue(
        RequestContext.system(server.runtime.dataSource, 'checkout-test', owner.businessId),
        watched.id,
      );
      const [message] = await one.done;
      expect(message.checkoutSessionUpdated).toEqual({
        checkoutSession: { id: watched.id, status: 'EXPIRED', paymentId: null },
        previousStatus: 'OPEN',
      });
    });
  });

  describe('payment links', () => {
    test('create, read, list and deactivate', async () => {
      const merchant = await server.signUp();
      const created = await gql(
        merchant,
        `mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { paymentLink { ${LINK} } ${USER_ERRORS} } }`,
        {
          input: { name: 'Gift', amount: '20', currency: 'usd', allowRecurring: true, recurringInterval: 'WEEKLY' },
        },
      );
      expect(created.body.errors).toBeUndefined();
      expect(created.body.data.createPaymentLink.userErrors).toEqual([]);
      const link = created.body.data.createPaymentLink.paymentLink;
      expect(link).toMatchObject({
        name: 'Gift',
        amount: { amount: '20.00', currency: 'USD' },
        active: true,
        allowRecurring: true,
        recurringInterval: 'WEEKLY',
        mode: 'TEST',
      });
      expect(link.url).toMatch(/^https:\/\/pay\.tessera\.test\/pay\/plink_test_/);
      const deactivate = `mutation($id: ID!) { deactivatePaymentLink(input: { id: $id }) { paymentLink { active deactivatedAt } ${USER_ERRORS} } }`;
      const deactivated = await gql(merchant, deactivate, { id: link.id });
      expect(deactivated.body.data.deactivatePaymentLink).toEqual({
        paymentLink: { active: false, deactivatedAt: expect.any(String) },
        userErrors: [],
      });
      const list = await gql(merchant, `{ paymentLinks(active: false) { edges { node { id active } } } }`);
      expect(list.body.data.paymentLinks.edges).toEqual([{ node: { id: link.id, active: false } }]);
      expect(
        (await gql(merchant, `query($id: ID!) { paymentLink(id: $id) { id } }`, { id: link.id })).body.data.paymentLink
          .id,
      ).toBe(link.id);
      const other = await server.signUp();
      expect(
        (await gql(other, `query($id: ID!) { paymentLink(id: $id) { id } }`, { id: link.id })).body.errors[0].extensions
          .code,
      ).toBe('NOT_FOUND');
      expect((await gql(other, deactivate, { id: link.id })).body.data.deactivatePaymentLink).toEqual({
        paymentLink: null,
        userErrors: [{ field: null, message: 'Payment link not found', code: 'NOT_FOUND' }],
      });
    });

    test('a visit opens a session with source PAYMENT_LINK and sourceId the link', async () => {
      const merchant = await server.signUp();
      const created = await gql(
        merchant,
        `mutation { createPaymentLink(input: { name: "Ticket", amount: "7", currency: "usd" }) { paymentLink { id url } } }`,
      );
      const link = created.body.data.createPaymentLink.paymentLink;
      await page(server, 'GET', pathOf(link.url));
      const sessions = await gql(
        merchant,
        `{ checkoutSessions(source: PAYMENT_LINK) { edges { node { source sourceId amount { amount } } } } }`,
      );
      expect(sessions.body.data.checkoutSessions.edges).toEqual([
        { node: { source: 'PAYMENT_LINK', sourceId: link.id, amount: { amount: '7.00' } } },
      ]);
    });

    test('bad input is a VALIDATION_ERROR userError on the field, and nothing is written', async () => {
      const merchant = await server.signUp();
      const response = await gql(
        merchant,
        `mutation { createPaymentLink(input: { name: "", amount: "0", currency: "usd" }) { paymentLink { id } ${USER_ERRORS} } }`,
      );
      expect(response.body.data.createPaymentLink).toEqual({
        paymentLink: null,
        userErrors: [{ field: ['input', 'name'], message: 'must not be empty', code: 'VALIDATION_ERROR' }],
      });
      const rows = await server.runtime.dataSource.query(
        `SELECT count(*)::int AS n FROM payment_links WHERE business_id = $1`,
        [merchant.businessId],
      );
      expect(rows[0].n).toBe(0);
    });
  });

  describe('invoices', () => {
    test('create (DRAFT, numbered), finalize (OPEN with a session), pay, read PAID with its checkoutSession', async () => {
      const merchant = await server.signUp();
      const created = await gql(
        merchant,
        `mutation($input: CreateInvoiceInput!) { createInvoice(input: $input) { invoice { ${INVOICE} } ${USER_ERRORS} } }`,
        {
          input: {
            customerEmail: 'client@example.com',
            currency: 'usd',
            items: [{ description: 'Work', quantity: 2, unitAmount: '50' }],
          },
        },
      );
      expect(created.body.errors).toBeUndefined();
      expect(created.body.data.createInvoice.userErrors).toEqual([]);
      const invoice = created.body.data.createInvoice.invoice;
      expect(invoice).toMatchObject({
        invoiceNumber: 'INV-000001',
        status: 'DRAFT',
        totalAmount: { amount: '100.00', amountMinor: '10000', currency: 'USD' },
        items: [{ description: 'Work', quantity: 2, unitAmount: { amount: '50.00' }, amount: { amount: '100.00' } }],
        checkoutUrl: null,
      });
      const event = await eventsOf(server, merchant.businessId, 'invoice.created');
      expect(event[0].data).toEqual({
        invoiceId: invoice.id,
        invoiceNumber: 'INV-000001',
        status: 'DRAFT',
        totalAmount: '100.00',
        currency: 'usd',
      });
      const finalized = await gql(
        merchant,
        `mutation($id: ID!) { finalizeInvoice(input: { id: $id }) { invoice { status checkoutUrl checkoutSession { id source sourceId status } } } }`,
        { id: invoice.id },
      );
      const open = finalized.body.data.finalizeInvoice.invoice;
      expect(open).toMatchObject({
        status: 'OPEN',
        checkoutSession: { source: 'INVOICE', sourceId: invoice.id, status: 'OPEN' },
      });
      await page(server, 'POST', pathOf(open.checkoutUrl), cardForm(CARDS.success));
      const paid = await gql(
        merchant,
        `query($id: ID!) { invoice(id: $id) { status paymentId paidAt checkoutSession { status paymentId } } }`,
        { id: invoice.id },
      );
      expect(paid.body.data.invoice).toMatchObject({
        status: 'PAID',
        paymentId: expect.any(String),
        checkoutSession: { status: 'COMPLETED' },
      });
      expect(paid.body.data.invoice.checkoutSession.paymentId).toBe(paid.body.data.invoice.paymentId);
      const voided = await gql(
        merchant,
        `mutation($id: ID!) { voidInvoice(input: { id: $id }) { invoice { status } ${USER_ERRORS} } }`,
        { id: invoice.id },
      );
      expect(voided.body.data.voidInvoice).toEqual({
        invoice: null,
        userErrors: [{ field: null, message: expect.any(String), code: 'CONFLICT' }],
      });
      const [row] = await server.runtime.dataSource.query(`SELECT status, voided_at FROM invoices WHERE id = $1`, [
        invoice.id,
      ]);
      expect(row).toEqual({ status: 'PAID', voided_at: null });
    });

    test('invoices lists newest first, filters by status, and each invoice resolves its session', async () => {
      const merchant = await server.signUp();
      for (let index = 0; index < 3; index++) {
        const created = await gql(
          merchant,
          `mutation { createInvoice(input: { customerEmail: "c@example.com", currency: "usd", amount: "5" }) { invoice { id } } }`,
        );
        await gql(merchant, `mutation($id: ID!) { finalizeInvoice(input: { id: $id }) { invoice { id } } }`, {
          id: created.body.data.createInvoice.invoice.id,
        });
      }
      const list = await gql(
        merchant,
        `{ invoices(status: OPEN) { edges { node { invoiceNumber checkoutSession { status } } } } }`,
      );
      expect(list.body.data.invoices.edges.map((edge: any) => edge.node)).toEqual([
        { invoiceNumber: 'INV-000003', checkoutSession: { status: 'OPEN' } },
        { invoiceNumber: 'INV-000002', checkoutSession: { status: 'OPEN' } },
        { invoiceNumber: 'INV-000001', checkoutSession: { status: 'OPEN' } },
      ]);
      expect(
        (await gql(merchant, `{ invoices(status: PAID) { edges { node { id } } } }`)).body.data.invoices.edges,
      ).toEqual([]);
    });

    test('a voided invoice, and NOT_FOUND across businesses', async () => {
      const merchant = await server.signUp();
      const created = await gql(
        merchant,
        `mutation { createInvoice(input: { customerEmail: "c@example.com", currency: "usd", amount: "5" }) { invoice { id } } }`,
      );
      const id = created.body.data.createInvoice.invoice.id;
      expect(
        (
          await gql(
            merchant,
            `mutation($id: ID!) { voidInvoice(input: { id: $id }) { invoice { status voidedAt } } }`,
            { id },
          )
        ).body.data.voidInvoice.invoice.status,
      ).toBe('VOID');
      const other = await server.signUp();
      expect(
        (
          await gql(
            other,
            `mutation($id: ID!) { finalizeInvoice(input: { id: $id }) { invoice { id } ${USER_ERRORS} } }`,
            { id },
          )
        ).body.data.finalizeInvoice,
      ).toEqual({ invoice: null, userErrors: [{ field: null, message: 'Invoice not found', code: 'NOT_FOUND' }] });
    });

    test('createInvoice: bad input is VALIDATION_ERROR userErrors on the input path (items.N.field), and no invoice is written', async () => {
      const merchant = await server.signUp();
      const response = await gql(
        merchant,
        `mutation($input: CreateInvoiceInput!) { createInvoice(input: $input) { invoice { id } ${USER_ERRORS} } }`,
        {
          input: {
            customerEmail: 'c@example.com',
            currency: 'usd',
            dueDate: '2000-01-01',
            items: [
              { description: 'Work', unitAmount: '5' },
              { description: 'More', unitAmount: '1.001' },
            ],
          },
        },
      );
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data.createInvoice.invoice).toBeNull();
      expect(response.body.data.createInvoice.userErrors).toEqual([
        { field: ['input', 'dueDate'], message: 'must be today or later', code: 'VALIDATION_ERROR' },
      ]);
      const lines = await gql(
        merchant,
        `mutation($input: CreateInvoiceInput!) { createInvoice(input: $input) { invoice { id } ${USER_ERRORS} } }`,
        {
          input: {
            customerEmail: 'c@example.com',
            currency: 'usd',
            items: [
              { description: 'Work', unitAmount: '5' },
              { description: 'More', unitAmount: '1.001' },
            ],
          },
        },
      );
      expect(lines.body.data.createInvoice).toEqual({
        invoice: null,
        userErrors: [
          { field: ['input', 'items', '1', 'unitAmount'], message: expect.any(String), code: 'VALIDATION_ERROR' },
        ],
      });
      const rows = await server.runtime.dataSource.query(
        `SELECT count(*)::int AS n FROM invoices WHERE business_id = $1`,
        [merchant.businessId],
      );
      expect(rows[0].n).toBe(0);
    });
  });

  describe('recurring gifts', () => {
    test('list, read with its paymentLink, charge now, cancel and resume', async () => {
      const merchant = await server.signUp();
      const link = (
        await gql(
          merchant,
          `mutation { createPaymentLink(input: { name: "Gift", amount: "3", currency: "usd", allowRecurring: true }) { paymentLink { id url } } }`,
        )
      ).body.data.createPaymentLink.paymentLink;
      const visit = await page(server, 'GET', pathOf(link.url));
      await page(
        server,
        'POST',
        pathOf(visit.location!),
        cardForm(CARDS.success, { email: 'donor@example.com', recurring: 'on' }),
      );
      const list = await gql(
        merchant,
        `query($link: ID) { recurringGifts(paymentLinkId: $link, status: ACTIVE) { edges { node { ${GIFT} paymentLink { id name } } } } }`,
        { link: link.id },
      );
      const [{ node: gift }] = list.body.data.recurringGifts.edges;
      expect(gift).toMatchObject({
        status: 'ACTIVE',
        paymentLinkId: link.id,
        email: 'donor@example.com',
        amount: { amount: '3.00', currency: 'USD' },
        interval: 'MONTHLY',
        chargeCount: 0,
        paymentLink: { id: link.id, name: 'Gift' },
      });
      const charged = await gql(
        merchant,
        `mutation($id: ID!) { sandboxChargeRecurringGift(input: { id: $id }) { recurringGift { chargeCount failureCount lastPaymentId } } }`,
        { id: gift.id },
      );
      const chargedGift = charged.body.data.sandboxChargeRecurringGift.recurringGift;
      expect(chargedGift).toMatchObject({ chargeCount: 1, failureCount: 0 });
      const events = await eventsOf(server, merchant.businessId, 'recurring_gift.charge.succeeded');
      expect(events[0].data).toEqual({
        recurringGiftId: gift.id,
        paymentLinkId: link.id,
        amount: '3.00',
        currency: 'usd',
        chargeCount: 1,
        paymentIntentId: chargedGift.lastPaymentId,
      });
      const resumeGift = `mutation($id: ID!) { resumeRecurringGift(input: { id: $id }) { recurringGift { status } ${USER_ERRORS} } }`;
      const resumedActive = await gql(merchant, resumeGift, { id: gift.id });
      expect(resumedActive.body.data.resumeRecurringGift).toEqual({
        recurringGift: { status: 'ACTIVE' },
        userErrors: [],
      });
      const cancelled = await gql(
        merchant,
        `mutation($id: ID!) { cancelRecurringGift(input: { id: $id }) { recurringGift { status nextChargeAt } ${USER_ERRORS} } }`,
        { id: gift.id },
      );
      expect(cancelled.body.data.cancelRecurringGift).toEqual({
        recurringGift: { status: 'CANCELLED', nextChargeAt: null },
        userErrors: [],
      });
      const resume = await gql(merchant, resumeGift, { id: gift.id });
      expect(resume.body.data.resumeRecurringGift).toEqual({
        recurringGift: null,
        userErrors: [{ field: null, message: expect.any(String), code: 'CONFLICT' }],
      });
      const read = await gql(merchant, `query($id: ID!) { recurringGift(id: $id) { status } }`, { id: gift.id });
      expect(read.body.data.recurringGift.status).toBe('CANCELLED');
      const other = await server.signUp();
      expect(
        (await gql(other, `query($id: ID!) { recurringGift(id: $id) { id } }`, { id: gift.id })).body.errors[0]
          .extensions.code,
      ).toBe('NOT_FOUND');
    });

    test('related payment links of a page of gifts are loaded with one query', async () => {
      const merchant = await server.signUp();
      const link = (
        await gql(
          merchant,
          `mutation { createPaymentLink(input: { name: "Gift", amount: "3", currency: "usd", allowRecurring: true }) { paymentLink { url } } }`,
        )
      ).body.data.createPaymentLink.paymentLink;
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
