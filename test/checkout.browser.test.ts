import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser, chromium } from 'playwright-core';
import { PATIENCE_MS, TestServer, startTestServer } from './support/harness';
import { FUTURE_YEAR, api, createSession, pathOf } from './support/checkout';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`[checkout.browser] ${CHROMIUM} is missing, so the headless-browser checkout test is skipped. Install it with: apt-get install -y chromium`);
}
const browserTest = hasChromium ? test : test.skip;

/** The hosted payment page in a real browser: the form, the POST, the redirect chain (and the page's CSP) to the merchant's success page. */
describe('hosted checkout in headless Chromium', () => {
  let server: TestServer;
  let merchantSite: http.Server;
  let merchantUrl: string;
  let browser: Browser | null = null;
  const landed: string[] = [];

  beforeAll(async () => {
    merchantSite = http.createServer((request, response) => {
      landed.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Thanks</title><h1 id="thanks">Thank you for your order</h1>');
    });
    await new Promise<void>((resolve) => merchantSite.listen(0, '127.0.0.1', resolve));
    merchantUrl = `http://127.0.0.1:${(merchantSite.address() as AddressInfo).port}`;
    server = await startTestServer();
  });
  afterAll(async () => {
    await browser?.close();
    await server.close();
    await new Promise((resolve) => merchantSite.close(resolve));
  });

  browserTest('a payer opens checkoutUrl, pays with 4242, and lands on successUrl; session and payment are COMPLETED', async () => {
    const merchant = await server.signUp();
    const session = await createSession(server, merchant, { amount: 19.99, customerEmail: undefined, successUrl: `${merchantUrl}/thanks` });
    // checkoutUrl is on PUBLIC_BASE_URL; the browser reaches the same page on the test server's own address.
    const checkoutUrl = `${server.baseUrl}${pathOf(session.checkoutUrl)}`;

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const browserPage = await browser.newPage();
    const cspViolations: string[] = [];
    browserPage.on('console', (message) => { if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text()); });
    await browserPage.goto(checkoutUrl);
    expect(await browserPage.textContent('.amount')).toBe('19.99 USD');
    await browserPage.fill('#email', 'browser@example.com');
    await browserPage.fill('#number', '4242 4242 4242 4242');
    await browserPage.fill('#expiryMonth', '12');
    await browserPage.fill('#expiryYear', FUTURE_YEAR);
    await browserPage.fill('#cvv', '123');
    await Promise.all([browserPage.waitForURL(`${merchantUrl}/thanks?**`, { timeout: PATIENCE_MS }), browserPage.click('#pay')]);
    expect(await browserPage.textContent('#thanks')).toBe('Thank you for your order');
    expect(landed.filter((url) => url.startsWith('/thanks'))).toEqual([`/thanks?session_id=${session.id}`]);
    expect(cspViolations).toEqual([]);

    const read = (await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${session.id}`)).body.data;
    expect(read.status).toBe('COMPLETED');
    const [payment] = await server.runtime.dataSource.query(`SELECT status, email, card_last4 FROM payments WHERE id = $1`, [read.paymentId]);
    expect(payment).toEqual({ status: 'COMPLETED', email: 'browser@example.com', card_last4: '4242' });
  });
});
