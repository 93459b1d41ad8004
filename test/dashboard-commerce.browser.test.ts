import { Page } from 'playwright-core';
import { expectAccessible } from './support/axe';
import { browserTestFor } from './support/browser';
import { CARDS, card, charge, enableCharging } from './support/charges';
import { CARDS as CHECKOUT_CARDS, FUTURE_YEAR, cardForm, page as hostedPage, pathOf } from './support/checkout';
import { dashboardSuite, screenshotScreen, signInThroughScreen, watch } from './support/dashboard';
import { TestMerchant, waitUntil } from './support/harness';
import { PATIENCE_MS, within } from './support/wait';

const browserTest = browserTestFor('dashboard-commerce.browser');

/** The status a row of a table shows (its StatusBadge). */
const rowStatus = (page: Page, id: string) =>
  page.locator(`tr[data-row-id="${id}"] [data-status]`).getAttribute('data-status');

/**
 * The dashboard's commerce screens in headless Chromium against a real server: a checkout session
 * created on its screen and paid on its hosted page in another tab turns COMPLETED in the list; a
 * payment link and an invoice created (and the invoice sent) on theirs are what the API then holds;
 * a customer's saved card and payment show on its page; a VIEWER sees no write action; axe-core on
 * every screen and state.
 */
describe('the dashboard commerce screens in headless Chromium', () => {
  const suite = dashboardSuite();

  const gql = async (who: TestMerchant, query: string, variables: Record<string, unknown> = {}) => {
    const response = await suite.server.graphql(query, variables, { authorization: `Bearer ${who.token}` });
    expect(response.body.errors).toBeUndefined();
    return response.body.data;
  };

  browserTest(
    'a checkout session created on its screen, paid on its URL in another tab, shows COMPLETED in the sessions list',
    async () => {
      const owner = await suite.server.signUp({ businessName: 'Session Goods' });
      const { page, context, problems } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, owner.email, owner.password);

      await page.getByRole('link', { name: 'Checkout sessions' }).click();
      await page.getByText('No checkout sessions yet').waitFor();
      await expectAccessible(page, 'the empty checkout sessions list');

      await page.getByRole('button', { name: 'New checkout session' }).click();
      // Bad input is refused on its fields, and nothing is created.
      await page.getByLabel('Amount', { exact: true }).fill('twelve');
      await page.getByLabel('Success URL').fill('not a url');
      await page.getByRole('button', { name: 'Create session' }).click();
      await page.getByText('Enter an amount such as 25.00').waitFor();
      await page.getByText('Enter an absolute URL such as https://example.com/thanks').waitFor();
      await expectAccessible(page, 'the checkout session form with errors');
      const [{ count: none }] = await suite.server.runtime.dataSource.query(
        `SELECT count(*)::int AS count FROM checkout_sessions WHERE business_id = $1`,
        [owner.businessId],
      );
      expect(none).toBe(0);

      await page.getByLabel('Amount', { exact: true }).fill('18.75');
      await page.getByLabel('Currency').fill('usd');
      await page.getByLabel('Customer email').fill('buyer@example.com');
      await page.getByLabel('Success URL').fill(`${suite.server.baseUrl}/healthz`);
      await page.getByLabel('Cancel URL').fill('https://shop.example.com/cart');
      await page.getByLabel('Description').fill('Two mugs');
      await page.getByRole('button', { name: 'Create session' }).click();
      const urlField = page.getByTestId('checkout-url');
      await urlField.waitFor();
      const checkoutUrl = await urlField.inputValue();

      const { checkoutSessions } = await gql(
        owner,
        '{ checkoutSessions { edges { node { id status checkoutUrl customerEmail description cancelUrl amount { amount currency } } } } }',
      );
      expect(checkoutSessions.edges).toHaveLength(1);
      const session = checkoutSessions.edges[0].node;
      expect(session).toMatchObject({
        status: 'OPEN',
        checkoutUrl,
        customerEmail: 'buyer@example.com',
        description: 'Two mugs',
        cancelUrl: 'https://shop.example.com/cart',
        amount: { amount: '18.75', currency: 'USD' },
      });
      await page.locator(`tr[data-row-id="${session.id}"]`).waitFor();
      expect(await rowStatus(page, session.id)).toBe('OPEN');
      await expectAccessible(page, 'a new checkout session with its URL');
      await screenshotScreen(page, 'checkout-session-new');

      // The payer, in another tab, pays on the URL the screen showed.
      const payer = await within(context.newPage(), PATIENCE_MS, 'the payer tab');
      watch(payer, problems);
      await payer.goto(`${suite.server.baseUrl}${pathOf(checkoutUrl)}`);
      await payer.fill('#number', '4242 4242 4242 4242');
      await payer.fill('#expiryMonth', '12');
      await payer.fill('#expiryYear', FUTURE_YEAR);
      await payer.fill('#cvv', '123');
      await Promise.all([
        payer.waitForURL(`${suite.server.baseUrl}/healthz**`, { timeout: 60_000 }),
        payer.click('#pay'),
      ]);

      // The list was not reloaded: the payment's update made it read its page again.
      await waitUntil(
        async () => (await rowStatus(page, session.id)) === 'COMPLETED',
        'the session row turns COMPLETED',
        60_000,
      );
      expect(
        await page.locator(`tr[data-row-id="${session.id}"]`).getByRole('link', { name: 'View payment' }).count(),
      ).toBe(1);

      // The filters ask the server: no OPEN session is left, and the completed one came from the API.
      await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Open' });
      await page.getByText('No checkout session matches these filters').waitFor();
      await expectAccessible(page, 'the filtered-empty checkout sessions list');
      await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Completed' });
      await page.getByRole('combobox', { name: 'Source' }).selectOption({ label: 'API' });
      await page.locator(`tr[data-row-id="${session.id}"]`).waitFor();
      await expectAccessible(page, 'the checkout sessions list');
      await screenshotScreen(page, 'checkout-sessions');
    },
    600_000,
  );

  browserTest(
    'a payment link and an invoice created on their screens are what the API holds; a gift on the link is charged and cancelled, the link deactivated and the invoice sent from the lists',
    async () => {
      const owner = await suite.server.signUp({ businessName: 'Link Goods' });
      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, owner.email, owner.password);

      await page.getByRole('link', { name: 'Payment links' }).click();
      await page.getByText('No payment links yet').waitFor();
      await expectAccessible(page, 'the empty payment links list');
      await page.getByRole('button', { name: 'New payment link' }).click();
      await page.getByLabel('Name').fill('Monthly support');
      await page.getByLabel('Amount', { exact: true }).fill('5.00');
      await page.getByLabel('Currency').fill('USD');
      await page.getByLabel('Description').fill('Keeps the lights on');
      await page.getByLabel('Payers may give every interval (recurring gift)').check();
      await page.getByRole('combobox', { name: 'Interval' }).click();
      await page.getByRole('option', { name: 'Weekly' }).click();
      await page.getByRole('button', { name: 'Create link' }).click();
      const linkUrl = await page.getByTestId('payment-link-url').inputValue();

      const { paymentLinks } = await gql(
        owner,
        '{ paymentLinks { edges { node { id name url active allowRecurring recurringInterval description amount { amount currency } } } } }',
      );
      expect(paymentLinks.edges).toHaveLength(1);
      const link = paymentLinks.edges[0].node;
      expect(link).toMatchObject({
        name: 'Monthly support',
        url: linkUrl,
        active: true,
        allowRecurring: true,
        recurringInterval: 'WEEKLY',
        description: 'Keeps the lights on',
        amount: { amount: '5.00', currency: 'USD' },
      });
      await page.locator(`tr[data-row-id="${link.id}"]`).waitFor();
      await expectAccessible(page, 'a new payment link');
      await screenshotScreen(page, 'payment-links');

      // A donor starts a weekly gift on the link (the hosted page, over HTTP).
      const visit = await hostedPage(suite.server, 'GET', pathOf(linkUrl));
      await hostedPage(
        suite.server,
        'POST',
        pathOf(visit.location!),
        cardForm(CHECKOUT_CARDS.success, { email: 'donor@example.com', recurring: 'on' }),
      );

      await page.getByRole('button', { name: 'Deactivate Monthly support' }).click();
      await waitUntil(
        async () => (await rowStatus(page, link.id)) === 'DEACTIVATED',
        'the link row shows it deactivated',
        60_000,
      );
      const { paymentLink } = await gql(owner, 'query($id: ID!) { paymentLink(id: $id) { active } }', {
        id: link.id,
      });
      expect(paymentLink.active).toBe(false);

      await page.getByRole('link', { name: 'Invoices' }).click();
      await page.getByText('No invoices yet').waitFor();
      await expectAccessible(page, 'the empty invoices list');
      await page.getByRole('button', { name: 'New invoice' }).click();
      await page.getByLabel('Customer email').fill('client@example.com');
      await page.getByLabel('Currency').fill('EUR');
      await page.getByLabel('Description', { exact: true }).fill('November work');
      await page.getByLabel('Line 1: description').fill('Design');
      await page.getByLabel('Line 1: quantity').fill('3');
      await page.getByLabel('Line 1: unit amount').fill('40.00');
      await page.getByRole('button', { name: 'Add a line' }).click();
      await page.getByLabel('Line 2: description').fill('Hosting');
      await page.getByLabel('Line 2: unit amount').fill('12.50');
      await page.getByRole('button', { name: 'Create invoice' }).click();
      await page.getByText(/created as a draft/).waitFor();

      const { invoices } = await gql(
        owner,
        '{ invoices { edges { node { id invoiceNumber status customerEmail description totalAmount { amount currency } items { description quantity unitAmount { amount } } } } } }',
      );
      expect(invoices.edges).toHaveLength(1);
      const invoice = invoices.edges[0].node;
      expect(invoice).toMatchObject({
        status: 'DRAFT',
        customerEmail: 'client@example.com',
        description: 'November work',
        totalAmount: { amount: '132.50', currency: 'EUR' },
        items: [
          { description: 'Design', quantity: 3, unitAmount: { amount: '40.00' } },
          { description: 'Hosting', quantity: 1, unitAmount: { amount: '12.50' } },
        ],
      });
      await page.locator(`tr[data-row-id="${invoice.id}"]`).waitFor();
      await expectAccessible(page, 'a new draft invoice');

      await page.getByRole('button', { name: `Send invoice ${invoice.invoiceNumber}` }).click();
      await waitUntil(async () => (await rowStatus(page, invoice.id)) === 'OPEN', 'the invoice row turns OPEN', 60_000);
      const sent = await gql(owner, 'query($id: ID!) { invoice(id: $id) { status checkoutUrl } }', { id: invoice.id });
      expect(sent.invoice.status).toBe('OPEN');
      expect(sent.invoice.checkoutUrl).toBeTruthy();
      await page.locator(`tr[data-row-id="${invoice.id}"]`).getByRole('link', { name: 'Payment page' }).waitFor();
      await expectAccessible(page, 'the invoices list');
      await screenshotScreen(page, 'invoices');

      await page.getByRole('link', { name: 'Recurring gifts' }).click();
      const { recurringGifts } = await gql(owner, '{ recurringGifts { edges { node { id } } } }');
      expect(recurringGifts.edges).toHaveLength(1);
      const giftId = recurringGifts.edges[0].node.id;
      const giftRow = page.locator(`tr[data-row-id="${giftId}"]`);
      await giftRow.waitFor();
      expect(await rowStatus(page, giftId)).toBe('ACTIVE');
      expect(await giftRow.textContent()).toContain('donor@example.com');
      expect(await giftRow.textContent()).toContain('Monthly support');
      await expectAccessible(page, 'the recurring gifts list');
      await screenshotScreen(page, 'recurring-gifts');

      await giftRow.getByRole('button', { name: 'Charge now' }).click();
      await waitUntil(
        async () =>
          (await gql(owner, 'query($id: ID!) { recurringGift(id: $id) { chargeCount } }', { id: giftId })).recurringGift
            .chargeCount === 1,
        'the gift is charged once',
        60_000,
      );
      await giftRow.getByRole('button', { name: 'Cancel gift' }).click();
      await waitUntil(
        async () => (await rowStatus(page, giftId)) === 'CANCELLED',
        'the gift row turns CANCELLED',
        60_000,
      );
      expect(await giftRow.getByRole('button').count()).toBe(0);
      const cancelled = await gql(owner, 'query($id: ID!) { recurringGift(id: $id) { status cancelledAt } }', {
        id: giftId,
      });
      expect(cancelled.recurringGift.status).toBe('CANCELLED');
      expect(cancelled.recurringGift.cancelledAt).toBeTruthy();
    },
    600_000,
  );

  browserTest(
    "a customer's page shows its saved card (the default) and its payment, linked to the payment's page; the list finds it by email",
    async () => {
      const owner = await suite.server.signUp({ businessName: 'Customer Goods' });
      await enableCharging(suite.server, owner);
      const { createCustomer } = await gql(
        owner,
        'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { customer { id } userErrors { message } } }',
        { input: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' } },
      );
      const customerId = createCustomer.customer.id;
      const { attachPaymentMethod } = await gql(
        owner,
        'mutation($input: AttachPaymentMethodInput!) { attachPaymentMethod(input: $input) { paymentMethod { id last4 } userErrors { message } } }',
        { input: { customerId, card: card(CARDS.gb) } },
      );
      const method = attachPaymentMethod.paymentMethod;
      const payment = await charge(suite.server, owner.apiKey, {
        amount: '7.25',
        currency: 'usd',
        paymentMethodId: method.id,
      });
      await gql(
        owner,
        'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { customer { id } userErrors { message } } }',
        { input: { email: 'grace@example.com' } },
      );

      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, owner.email, owner.password);
      await page.getByRole('link', { name: 'Customers' }).click();
      await page.locator(`tr[data-row-id="${customerId}"]`).waitFor();
      expect(await page.locator('tbody tr').count()).toBe(2);
      expect(await page.locator(`tr[data-row-id="${customerId}"]`).textContent()).toContain(`•••• ${method.last4}`);
      await expectAccessible(page, 'the customers list');
      await screenshotScreen(page, 'customers');

      await page.getByLabel('Email').fill('nobody@example.com');
      await page.getByText('No customer has this email').waitFor();
      await expectAccessible(page, 'the filtered-empty customers list');
      await page.getByLabel('Email').fill('ada@example.com');
      await page.locator(`tr[data-row-id="${customerId}"]`).waitFor();
      await waitUntil(async () => (await page.locator('tbody tr').count()) === 1, 'only Ada is listed', 60_000);

      await page.getByRole('link', { name: 'ada@example.com' }).click();
      await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
      const cardRow = page.locator(`tr[data-payment-method-id="${method.id}"]`);
      await cardRow.waitFor();
      expect(await cardRow.textContent()).toContain(`•••• ${method.last4}`);
      expect(await cardRow.textContent()).toContain('Default');
      const paymentRow = page.locator(`tr[data-payment-id="${payment.id}"]`);
      await paymentRow.waitFor();
      expect(await paymentRow.textContent()).toContain('$7.25');
      await expectAccessible(page, "a customer's page");
      await screenshotScreen(page, 'customer');

      await paymentRow.getByRole('link').click();
      await page.waitForURL(`**/dashboard/payments/${payment.id}`);
      await page.getByRole('heading', { name: '$7.25' }).waitFor();
    },
    600_000,
  );

  browserTest(
    'a VIEWER sees the lists but no create, deactivate, send or void button',
    async () => {
      const owner = await suite.server.signUp({ businessName: 'Viewer Goods' });
      const viewer = await suite.server.signUp({ businessName: 'Viewer Own' });
      await suite.server.addTeamMember(owner, viewer, 'VIEWER');
      await gql(
        owner,
        'mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { paymentLink { id } userErrors { message } } }',
        { input: { name: 'Tickets', amount: '10', currency: 'USD' } },
      );
      await gql(
        owner,
        'mutation($input: CreateInvoiceInput!) { createInvoice(input: $input) { invoice { id } userErrors { message } } }',
        { input: { customerEmail: 'client@example.com', currency: 'USD', amount: '99' } },
      );

      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, viewer.email, viewer.password);
      // The viewer's own business is the default: switch to the owner's in the header.
      await page.getByRole('combobox', { name: 'Business' }).click();
      await page.getByRole('option', { name: 'Viewer Goods' }).click();
      await page.getByRole('link', { name: 'Checkout sessions' }).click();
      await page.getByText('No checkout sessions yet').waitFor();
      expect(await page.getByRole('button', { name: 'New checkout session' }).count()).toBe(0);

      await page.getByRole('link', { name: 'Payment links' }).click();
      await page.getByRole('cell', { name: 'Tickets' }).waitFor();
      expect(await page.getByRole('button', { name: 'New payment link' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /Deactivate/ }).count()).toBe(0);
      await expectAccessible(page, 'the payment links list for a VIEWER');

      await page.getByRole('link', { name: 'Invoices' }).click();
      await page.getByRole('cell', { name: 'client@example.com' }).waitFor();
      expect(await page.getByRole('button', { name: 'New invoice' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /Send|Void/ }).count()).toBe(0);
      await expectAccessible(page, 'the invoices list for a VIEWER');
    },
    600_000,
  );
});
