import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser, Page } from 'playwright-core';
import { TestServer, startTestServer } from './support/harness';
import { FUTURE_YEAR, api, createSession, pathOf } from './support/checkout';
import { expectAccessible } from './support/axe';
import { browserTestFor, docScreenshot, launchChromium } from './support/browser';
import { PATIENCE_MS, within } from './support/wait';

const browserTest = browserTestFor('checkout.browser');

/** The attributes a screen reader and the eye use to find a refused field. */
const fieldStateOf = (page: Page, id: string) =>
  page.evaluate((fieldId) => {
    const doc = (globalThis as any).document;
    const field = doc.getElementById(fieldId);
    const describedBy = field.getAttribute('aria-describedby');
    return {
      invalid: field.getAttribute('aria-invalid'),
      message: describedBy ? doc.getElementById(describedBy)?.textContent : null,
      borderColor: (globalThis as any).getComputedStyle(field).borderTopColor,
    };
  }, id);

/**
 * Stops the page's clock (page.clock) before it loads a page that moves on by itself (the 3-D Secure
 * step submits itself after 800 ms, the processing page reloads after 2 s): the page's timers fire
 * only when the test resumes the clock, so the page stays put, however slow the machine, while the
 * test checks it. Holding the navigation's request instead (page.route) deadlocks a busy machine:
 * once the page's own navigation has started, its execution context is gone and every evaluation
 * (axe-core's check, waitForSelector) waits for the next document, which the held request never
 * delivers (issue 25). axe-core runs in a world of its own, on real timers (support/axe.ts).
 */
async function pauseTimers(page: Page): Promise<void> {
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1_000);
}

const focusedId = (page: Page) => page.evaluate(() => (globalThis as any).document.activeElement?.id ?? null);

/**
 * The hosted payment page in a real browser: the form, the POST, the redirect chain (and the page's
 * CSP) to the merchant's success page, refused fields, 3-D Secure under another host name than
 * PUBLIC_BASE_URL, the receipt, and axe-core's accessibility check on every page and state.
 */
describe('hosted checkout in headless Chromium', () => {
  let server: TestServer;
  let merchantSite: http.Server;
  let merchantUrl: string;
  let browser: Browser | null = null;
  const landed: string[] = [];

  const openPage = async () => {
    browser ??= await launchChromium();
    const page = await within(browser.newPage(), PATIENCE_MS, 'a new page in Chromium');
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    return { page, cspViolations };
  };

  beforeAll(async () => {
    merchantSite = http.createServer((request, response) => {
      landed.push(request.url ?? '');
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Thanks</title><h1 id="thanks">Thank you for your order</h1>');
    });
    await new Promise<void>((resolve) => merchantSite.listen(0, '127.0.0.1', resolve));
    merchantUrl = `http://127.0.0.1:${(merchantSite.address() as AddressInfo).port}`;
    // PUBLIC_BASE_URL names another host than the one the browser opens (127.0.0.1:<port>), as a
    // laptop's http://localhost:PORT does when the page is opened as 127.0.0.1 or a LAN address.
    server = await startTestServer({ publicBaseUrl: 'http://localhost:9' });
  });
  afterAll(async () => {
    await browser?.close();
    await server.close();
    await new Promise((resolve) => merchantSite.close(resolve));
  });

  browserTest(
    'a payer opens checkoutUrl, pays with 4242, and lands on successUrl; session and payment are COMPLETED',
    async () => {
      const merchant = await server.signUp();
      const session = await createSession(server, merchant, {
        amount: 19.99,
        customerEmail: undefined,
        successUrl: `${merchantUrl}/thanks`,
      });
      const { page, cspViolations } = await openPage();
      await page.goto(`${server.baseUrl}${pathOf(session.checkoutUrl)}`);
      expect(await page.textContent('.amount')).toBe('19.99 USD');
      await expectAccessible(page, 'the checkout form');
      await page.fill('#email', 'browser@example.com');
      await page.fill('#number', '4242 4242 4242 4242');
      await page.fill('#expiryMonth', '12');
      await page.fill('#expiryYear', FUTURE_YEAR);
      await page.fill('#cvv', '123');
      await Promise.all([page.waitForURL(`${merchantUrl}/thanks?**`, { timeout: 60_000 }), page.click('#pay')]);
      expect(await page.textContent('#thanks')).toBe('Thank you for your order');
      expect(landed.filter((url) => url.startsWith('/thanks'))).toEqual([`/thanks?session_id=${session.id}`]);
      expect(cspViolations).toEqual([]);

      const read = (await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${session.id}`)).body.data;
      expect(read.status).toBe('COMPLETED');
      const [payment] = await server.runtime.dataSource.query(
        `SELECT status, email, card_last4 FROM payments WHERE id = $1`,
        [read.paymentId],
      );
      expect(payment).toEqual({ status: 'COMPLETED', email: 'browser@example.com', card_last4: '4242' });
    },
    180_000,
  );

  browserTest(
    'refused fields are marked (aria-invalid, a red border, the payer-worded message linked by aria-describedby), the first is focused, and the page stays accessible',
    async () => {
      const merchant = await server.signUp({ businessName: 'Harbour Books' });
      const session = await createSession(server, merchant, {
        customerEmail: undefined,
        successUrl: `${merchantUrl}/thanks`,
      });
      const { page } = await openPage();
      await page.goto(`${server.baseUrl}${pathOf(session.checkoutUrl)}`);
      const untouched = await fieldStateOf(page, 'number');
      await page.fill('#email', 'not-an-email');
      await page.fill('#number', '4242');
      await page.fill('#expiryMonth', '01');
      await page.fill('#expiryYear', '2020');
      await page.fill('#cvv', '1');
      await Promise.all([page.waitForLoadState('load'), page.waitForSelector('.field-error'), page.click('#pay')]);

      expect(await page.textContent('[role=alert]')).toContain('see the highlighted fields');
      expect(await fieldStateOf(page, 'email')).toMatchObject({
        invalid: 'true',
        message: 'Enter a valid email address, like name@example.com',
      });
      expect(await fieldStateOf(page, 'number')).toMatchObject({
        invalid: 'true',
        message: 'Enter the 12 to 19 digits of your card number',
      });
      expect(await fieldStateOf(page, 'expiryYear')).toMatchObject({
        invalid: 'true',
        message: 'This card has expired',
      });
      expect(await fieldStateOf(page, 'cvv')).toMatchObject({
        invalid: 'true',
        message: 'Enter the 3-digit security code',
      });
      expect(await fieldStateOf(page, 'expiryMonth')).toMatchObject({ invalid: null, message: null });
      // The refused field looks refused (its border is not the untouched field's), and the payer starts on the first one.
      expect((await fieldStateOf(page, 'number')).borderColor).not.toBe(untouched.borderColor);
      expect(await focusedId(page)).toBe('email');
      // The server's wording, never the API's.
      expect(await page.content()).not.toMatch(/must be|Luhn|is required/);
      await expectAccessible(page, 'the checkout form with refused fields');
      await docScreenshot(page, 'checkout-errors.png');

      // A declined card: the form again with the payer's reason, and still accessible.
      await page.fill('#email', 'payer@example.com');
      await page.fill('#number', '4000 0000 0000 0002');
      await page.fill('#expiryYear', FUTURE_YEAR);
      await page.fill('#cvv', '123');
      await Promise.all([page.waitForLoadState('load'), page.click('#pay')]);
      expect(await page.textContent('[role=alert]')).toContain('Your card was declined. Try another card');
      await expectAccessible(page, 'the checkout form after a decline');
    },
    180_000,
  );

  browserTest(
    'under a host name other than PUBLIC_BASE_URL, a 3-D Secure card (4000 0000 0000 3220) goes through the challenge to the receipt: date, amount, card, a reference the merchant finds the payment by, no test card hints',
    async () => {
      const merchant = await server.signUp({ businessName: 'Accra Live' });
      const call = api(server, merchant);
      const link = (
        await call('POST', '/api/v1/business/payment-links', {
          name: 'Concert ticket',
          amount: '42.50',
          currency: 'eur',
        })
      ).body.data;
      expect(link.url.startsWith('http://localhost:9/pay/')).toBe(true);
      const { page, cspViolations } = await openPage();
      await pauseTimers(page);
      await page.goto(`${server.baseUrl}${pathOf(link.url)}`);
      // The link's redirect to its session keeps the host the payer opened.
      expect(page.url().startsWith(`${server.baseUrl}/checkout/cs_test_`)).toBe(true);
      await page.fill('#email', 'fan@example.com');
      await page.fill('#number', '4000 0000 0000 3220');
      await page.fill('#expiryMonth', '12');
      await page.fill('#expiryYear', FUTURE_YEAR);
      await page.fill('#cvv', '123');
      await Promise.all([
        page.waitForURL(`${server.baseUrl}/checkout/3ds/**`, { timeout: 60_000 }),
        page.click('#pay'),
      ]);
      await page.waitForSelector('#confirm');
      await expectAccessible(page, 'the 3-D Secure step');
      // The step submits itself and the payer lands on the receipt, on the same host.
      await page.clock.resume();
      await page.waitForURL(`${server.baseUrl}/checkout/*/complete`, { timeout: 60_000 });
      expect(cspViolations).toEqual([]);

      const [payment] = await server.runtime.dataSource.query(
        `SELECT id, status, card_last4, captured_at FROM payments WHERE business_id = $1`,
        [merchant.businessId],
      );
      expect(payment).toMatchObject({ status: 'COMPLETED', card_last4: '3220' });
      const reference = `${payment.id.slice(0, 8)}-${payment.id.slice(9, 13)}`.toUpperCase();
      expect(await page.textContent('#receipt-amount')).toBe('42.50 EUR');
      expect(await page.textContent('#receipt-card')).toBe('Visa ending in 3220');
      expect(await page.textContent('#receipt-reference')).toBe(reference);
      const captured = new Date(payment.captured_at);
      expect(await page.textContent('#receipt-date')).toContain(String(captured.getUTCFullYear()));
      expect(await page.textContent('#receipt-date')).toContain('UTC');
      const text = await page.textContent('main');
      expect(text).toContain('Test mode');
      expect(text).not.toMatch(/4242|Try card|any CVV/);
      expect(text).not.toContain(payment.id);
      await expectAccessible(page, 'the receipt');
      await docScreenshot(page, 'receipt.png');

      // The merchant's support finds the payment by the reference the payer reads out (any case, spaces).
      const found = await call(
        'GET',
        `/api/v1/business/payments?reference=${encodeURIComponent(reference.toLowerCase().replace('-', ' '))}`,
      );
      expect(found.status).toBe(200);
      expect(found.body.data.items.map((item: { id: string }) => item.id)).toEqual([payment.id]);
    },
    180_000,
  );

  browserTest(
    'the pages that end a checkout (processing, locked, expired, an inactive link, an unknown token) pass the accessibility check',
    async () => {
      const merchant = await server.signUp();
      const call = api(server, merchant);
      const { page } = await openPage();
      // The processing page never reloads here: the later pages are opened by the test.
      await pauseTimers(page);

      // Another submit of the same session in progress: the 409 page that refreshes itself.
      const busy = await createSession(server, merchant, { successUrl: `${merchantUrl}/thanks` });
      await page.goto(`${server.baseUrl}${pathOf(busy.checkoutUrl)}`);
      await server.runtime.dataSource.query(
        `UPDATE checkout_sessions SET claimed_until = now() + interval '10 minutes' WHERE id = $1`,
        [busy.id],
      );
      await page.fill('#number', '4242 4242 4242 4242');
      await page.fill('#expiryMonth', '12');
      await page.fill('#expiryYear', FUTURE_YEAR);
      await page.fill('#cvv', '123');
      const [processing] = await Promise.all([
        page.waitForResponse((response) => response.request().method() === 'POST'),
        page.click('#pay'),
      ]);
      expect(processing.status()).toBe(409);
      await page.waitForSelector('[role=status]');
      await expectAccessible(page, 'the processing page');

      const locked = await createSession(server, merchant);
      await server.runtime.dataSource.query(`UPDATE checkout_sessions SET status = 'LOCKED' WHERE id = $1`, [
        locked.id,
      ]);
      expect((await page.goto(`${server.baseUrl}${pathOf(locked.checkoutUrl)}`))!.status()).toBe(423);
      await expectAccessible(page, 'the locked page');

      const expired = await createSession(server, merchant);
      await server.runtime.dataSource.query(
        `UPDATE checkout_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`,
        [expired.id],
      );
      expect((await page.goto(`${server.baseUrl}${pathOf(expired.checkoutUrl)}`))!.status()).toBe(410);
      await expectAccessible(page, 'the expired page');

      const link = (
        await call('POST', '/api/v1/business/payment-links', { name: 'Old offer', amount: 5, currency: 'usd' })
      ).body.data;
      await call('POST', `/api/v1/business/payment-links/${link.id}/deactivate`);
      expect((await page.goto(`${server.baseUrl}${pathOf(link.url)}`))!.status()).toBe(410);
      await expectAccessible(page, 'the inactive link page');

      expect((await page.goto(`${server.baseUrl}/checkout/cs_test_unknown`))!.status()).toBe(404);
      await expectAccessible(page, 'the not-found page');
    },
    180_000,
  );
});
