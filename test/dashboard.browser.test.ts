import { Page, Request, Route } from 'playwright-core';
import { expectAccessible } from './support/axe';
import { browserTestFor } from './support/browser';
import { CARDS, FUTURE_YEAR, api, pathOf } from './support/checkout';
import { dashboardSuite, screenshotScreen, signInThroughScreen, watch } from './support/dashboard';
import { codeIn, waitFor, waitUntil } from './support/harness';
import { chargingMerchant } from './support/payments';
import { PATIENCE_MS, within } from './support/wait';

const browserTest = browserTestFor('dashboard.browser');

const CHARGE = `mutation($input: ChargeCardInput!) { chargeCard(input: $input) { payment { id } userErrors { code message } } }`;

/** The GraphQL operation a request of the page names (`operationName`). */
const operationOf = (request: Request | Route): string | undefined => {
  const sent = 'request' in request ? request.request() : request;
  if (sent.method() !== 'POST') return undefined;
  return (sent.postDataJSON() as { operationName?: string } | null)?.operationName;
};

/** The status badge of a payment's row in the payments table. */
const rowStatus = (page: Page, paymentId: string) =>
  page.locator(`tr[data-row-id="${paymentId}"] [data-status]`).getAttribute('data-status');

/**
 * The merchant dashboard at /dashboard, built as `npm start` builds it, in headless Chromium against
 * a real server with nothing else reachable: sign-up with the emailed code, the shell (test-mode
 * strip, mode switch), a payment taken on the hosted page in another tab that appears and turns
 * COMPLETED in the list without a reload (a subscription), its page and a partial refund, sign-in
 * refusals, an expired session; axe-core on each screen.
 */
describe('the dashboard in headless Chromium', () => {
  const suite = dashboardSuite();

  browserTest(
    'a merchant signs up with the emailed code, takes a payment on the hosted page in another tab, watches it turn COMPLETED without a reload, and refunds part of it',
    async () => {
      const { page, context, problems } = await suite.open();
      const email = `dash-${Date.now()}@example.com`;

      await page.goto(`${suite.server.baseUrl}/dashboard`);
      await page.waitForURL('**/dashboard/sign-in');
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByLabel('Your name').fill('Dana Dash');
      await page.getByLabel('Business name').fill('Dash Goods');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('correct-horse-battery');
      await expectAccessible(page, 'the sign-up form');
      await screenshotScreen(page, 'sign-up');
      await page.getByRole('button', { name: 'Create account' }).click();

      await page.getByText('We sent a 6-digit code').waitFor();
      const [mail] = await waitFor(
        () => suite.server.mailTo(email),
        (mails) => mails.length > 0,
      );
      await page.getByLabel('Digit 1 of the sign-up code').focus();
      await page.keyboard.type(codeIn(mail)!);
      await page.getByRole('button', { name: 'Confirm' }).click();
      const apiKey = (await page.getByTestId('test-api-key').textContent())!.trim();
      expect(apiKey).toMatch(/^bk_test_/);
      await page.getByRole('button', { name: 'Go to the dashboard' }).click();

      await page.getByRole('heading', { name: 'Dash Goods' }).waitFor();
      expect(await page.getByTestId('test-mode-banner').textContent()).toContain('Test mode');
      await expectAccessible(page, 'the home screen');
      await screenshotScreen(page, 'home');

      await page.getByRole('link', { name: 'Payments' }).click();
      await page.getByText('No payments yet').waitFor();
      await expectAccessible(page, 'the empty payments list');

      // The payer, in another tab, pays on the hosted page.
      const session = (
        await api(suite.server, apiKey)('POST', '/api/v1/business/checkout/session', {
          amount: 42.5,
          currency: 'usd',
          customerEmail: 'payer@example.com',
          successUrl: `${suite.server.baseUrl}/healthz`,
        })
      ).body.data;
      const payer = await within(context.newPage(), PATIENCE_MS, 'the payer tab');
      watch(payer, problems);
      await payer.goto(`${suite.server.baseUrl}${pathOf(session.checkoutUrl)}`);
      await payer.fill('#number', '4242 4242 4242 4242');
      await payer.fill('#expiryMonth', '12');
      await payer.fill('#expiryYear', FUTURE_YEAR);
      await payer.fill('#cvv', '123');
      await Promise.all([
        payer.waitForURL(`${suite.server.baseUrl}/healthz**`, { timeout: 60_000 }),
        payer.click('#pay'),
      ]);
      const [{ id: paymentId }] = await suite.server.runtime.dataSource.query(
        `SELECT p.id FROM payments p JOIN checkout_sessions s ON s.payment_id = p.id WHERE s.id = $1`,
        [session.id],
      );

      // The dashboard tab was not reloaded: its row arrived and turned COMPLETED through the subscription.
      const loads: string[] = [];
      page.on('load', () => loads.push(page.url()));
      await page.locator(`tr[data-row-id="${paymentId}"]`).waitFor({ timeout: 60_000 });
      await waitUntil(
        async () => (await rowStatus(page, paymentId)) === 'COMPLETED',
        'the row turns COMPLETED',
        60_000,
      );
      expect(loads).toEqual([]);
      expect(await page.locator(`tr[data-row-id="${paymentId}"]`).textContent()).toContain('payer@example.com');
      await expectAccessible(page, 'the payments list');
      await screenshotScreen(page, 'payments');

      await page.locator(`tr[data-row-id="${paymentId}"] a`).click();
      await page.getByRole('heading', { name: 'Refund', exact: true }).waitFor();
      await page.getByLabel('Amount (USD)').fill('10.00');
      await page.getByLabel('Reason', { exact: true }).fill('damaged box');
      await page.getByRole('button', { name: 'Refund', exact: true }).click();
      await page.locator('tr[data-refund-id]').waitFor();
      // The payment's events (Payment.events): created and completed, then the refund, as the page reloads them.
      await page.locator('tr[data-event-type="payment.completed"]').waitFor();
      expect(await page.locator('tr[data-refund-id]').textContent()).toContain('damaged box');
      const [refund] = await suite.server.runtime.dataSource.query(
        `SELECT amount::text AS amount FROM refunds WHERE payment_id = $1`,
        [paymentId],
      );
      expect(refund).toEqual({ amount: '1000' });
      await expectAccessible(page, 'a payment with a refund');
      await screenshotScreen(page, 'payment');

      // Home: the payment in today's and this month's volume (paymentVolume), and the wallet's balance.
      await page.getByRole('link', { name: 'Home' }).click();
      await page.getByTestId('volume-month-USD').waitFor();
      expect(await page.getByTestId('volume-month-USD').textContent()).toMatch(/\$42\.50.*1 payment$/);
      expect(await page.getByTestId('volume-today-USD').textContent()).toMatch(/\$42\.50/);
      await expectAccessible(page, 'the home screen with volume');
      await screenshotScreen(page, 'home-volume');
    },
    600_000,
  );

  browserTest(
    'sign-in: a wrong password is refused with the lockout rule; a refused session sends the user back to sign in, saying it expired; the mode switch leaves test mode unmistakably',
    async () => {
      const merchant = await suite.server.signUp({ businessName: 'Sign-in Goods' });
      const { page } = await suite.open();
      await page.goto(`${suite.server.baseUrl}/dashboard/payments`);
      await page.waitForURL('**/dashboard/sign-in');
      await page.getByLabel('Email').fill(merchant.email);
      await page.getByLabel('Password', { exact: true }).fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const refusal = page.getByRole('alert');
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('locked for 15 minutes');
      await expectAccessible(page, 'a refused sign-in');

      await page.getByLabel('Password', { exact: true }).fill(merchant.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // Back where the user was going.
      await page.waitForURL('**/dashboard/payments');
      await page.getByRole('heading', { name: 'Payments' }).waitFor();

      await page.getByText('Live', { exact: true }).click();
      await page.getByTestId('live-setup').waitFor();
      expect(await page.getByTestId('test-mode-banner').count()).toBe(0);
      await page.getByText('Test', { exact: true }).click();
      await page.getByTestId('test-mode-banner').waitFor();

      // The server stops accepting the session (its JWT replaced by one it refuses): the next request ends it.
      await page.evaluate(() => {
        const storage = (globalThis as any).localStorage;
        const session = JSON.parse(storage.getItem('tessera.dashboard.session'));
        storage.setItem('tessera.dashboard.session', JSON.stringify({ ...session, token: 'not.a.jwt' }));
      });
      await page.reload();
      await page.waitForURL('**/dashboard/sign-in');
      await page.getByText('Your session expired').waitFor();
    },
    300_000,
  );

  browserTest(
    "a screen's first query is answered while the frame's own query is held back; the screen appears, with its write actions, only once the frame knows the role",
    async () => {
      const { page } = await suite.open();
      const owner = await chargingMerchant(suite.server);
      const charged = await suite.server.graphql(
        CHARGE,
        {
          input: {
            amount: '12.00',
            currency: 'usd',
            email: 'payer@example.com',
            card: { number: CARDS.success, expiryMonth: 12, expiryYear: Number(FUTURE_YEAR), cvv: '123' },
          },
        },
        { 'x-api-key': owner.apiKey },
      );
      const paymentId = charged.body.data?.chargeCard.payment.id as string;
      await signInThroughScreen(page, suite.server.baseUrl, owner.email, owner.password);

      for (const [screen, path, operation, heading] of [
        ['the payments list', '/dashboard/payments', 'PaymentsList', 'Payments'],
        ['a payment', `/dashboard/payments/${paymentId}`, 'PaymentDetail', /12\.00/],
        ['home', '/dashboard', 'HomeOverview', 'Balances'],
      ] as const) {
        // The frame's answer waits for the screen's: with the queries one after the other (the
        // screen's sent once the frame has its answer), the screen's answer would never come.
        let frameMayAnswer: () => void = () => undefined;
        const released = new Promise<void>((resolve) => (frameMayAnswer = resolve));
        await page.route('**/graphql', async (route) => {
          if (operationOf(route) === 'DashboardShell') await released;
          await route.continue();
        });
        const screenAnswered = page.waitForResponse((response) => operationOf(response.request()) === operation, {
          timeout: PATIENCE_MS,
        });
        await page.goto(`${suite.server.baseUrl}${path}`, { waitUntil: 'commit' });
        await within(screenAnswered, PATIENCE_MS, `${operation} answered before DashboardShell (${screen})`);
        // Its data is here, but the role is not: no screen yet, so no write action either.
        expect(await page.locator('main h2').count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Refund', exact: true }).count()).toBe(0);
        frameMayAnswer();
        await page.getByRole('heading', { name: heading }).first().waitFor({ timeout: PATIENCE_MS });
        if (operation === 'PaymentDetail') await page.getByRole('button', { name: 'Refund', exact: true }).waitFor();
        await page.unroute('**/graphql');
      }
    },
    300_000,
  );

  browserTest(
    "each screen sends each of its first queries once: a query sent as the route is entered is the screen's own, not sent again",
    async () => {
      const { page } = await suite.open();
      const owner = await chargingMerchant(suite.server);
      await signInThroughScreen(page, suite.server.baseUrl, owner.email, owner.password);
      const paths = await page.$$eval('nav[aria-label="Sections"] a', (links) =>
        links.map((link) => (link as unknown as { pathname: string }).pathname),
      );
      expect(paths.length).toBeGreaterThan(15);

      const sent: string[] = [];
      let inFlight = 0;
      let lastSettled = Date.now();
      page.on('request', (request) => {
        const operation = request.url().endsWith('/graphql') ? operationOf(request) : undefined;
        if (!operation) return;
        sent.push(operation);
        inFlight++;
      });
      const settled = () => {
        if (inFlight > 0) inFlight--;
        lastSettled = Date.now();
      };
      page.on('requestfinished', (request) => request.url().endsWith('/graphql') && settled());
      page.on('requestfailed', (request) => request.url().endsWith('/graphql') && settled());

      for (const path of paths) {
        sent.length = 0;
        await page.goto(`${suite.server.baseUrl}${path}`);
        await page.waitForFunction(
          () => {
            type Found = { querySelector(selector: string): Found | null };
            const main = (globalThis as unknown as { document: Found }).document.querySelector('main');
            return Boolean(main?.querySelector('h2')) && !main?.querySelector('[role="status"]');
          },
          undefined,
          { timeout: PATIENCE_MS },
        );
        // Until no GraphQL request has been in flight for half a second: a second copy would be sent by then.
        await waitUntil(() => inFlight === 0 && Date.now() - lastSettled > 500, `the GraphQL requests of ${path}`);
        const twice = sent.filter((operation, index) => sent.indexOf(operation) !== index);
        expect({ path, twice }).toEqual({ path, twice: [] });
        expect({ path, frame: sent.includes('DashboardShell') }).toEqual({ path, frame: true });
      }
    },
    600_000,
  );
});
