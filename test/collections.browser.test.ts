import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser, chromium } from 'playwright-core';
import { PATIENCE_MS, TestServer, startTestServer } from './support/harness';
import { api, pathOf } from './support/checkout';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`[collections.browser] ${CHROMIUM} is missing, so the headless-browser collection test is skipped. Install it with: apt-get install -y chromium`);
}
const browserTest = hasChromium ? test : test.skip;

/**
 * A checkout session offering local rails, in a real browser: the payer picks mobile money on the
 * hosted page, lands on Tessera's instructions page, pays (the sandbox helper plays the payer's
 * phone), and the page takes them on to the merchant's success URL once the collection completed.
 */
describe('hosted checkout with local rails in headless Chromium', () => {
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

  browserTest('a payer picks mobile money, sees the prompt instructions, pays, and lands on successUrl; the collection (source session) and the session complete', async () => {
    const merchant = await server.signUp();
    const call = api(server, merchant);
    const created = await call('POST', '/api/v1/business/checkout/session', {
      amount: '75.00', currency: 'ghs', customerEmail: 'kofi@example.com', successUrl: `${merchantUrl}/thanks`, paymentMethods: ['card', 'momo'],
    });
    expect(created.status).toBe(201);
    const session = created.body.data;

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const browserPage = await browser.newPage();
    const cspViolations: string[] = [];
    browserPage.on('console', (message) => { if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text()); });
    await browserPage.goto(`${server.baseUrl}${pathOf(session.checkoutUrl)}`);
    expect(await browserPage.textContent('.amount')).toBe('75.00 GHS');
    await browserPage.fill('#momo-phone', '+233 24 123 4567');
    await browserPage.selectOption('#momo-network', 'mtn-gh');
    await Promise.all([browserPage.waitForURL(/\/collect\/col_test_/, { timeout: PATIENCE_MS }), browserPage.click('#pay-momo')]);
    expect(await browserPage.textContent('#momo-prompt')).toContain('MTN Mobile Money');
    expect(await browserPage.getAttribute('#collection-status', 'data-status')).toBe('pending');
    const collectionId = await browserPage.getAttribute('#collection-status', 'data-collection-id');

    const collection = (await call('GET', `/api/v1/business/collections/${collectionId}`)).body.data;
    expect(collection).toMatchObject({
      source: 'session', status: 'pending', amount: 7_500, currency: 'ghs', country: 'GH',
      channel: { rail: 'momo', channelId: 'sbx_ch_gh_momo', networkId: 'mtn-gh' }, instructions: { kind: 'momo_prompt', phone: '+233 24 123 4567' },
    });

    // The payer approves the prompt on their phone: the sandbox helper sends the exact amount.
    const paid = await call('POST', `/api/v1/business/sandbox/collections/${collectionId}/pay`, { amount: 7_500 });
    expect(paid.body.data.status).toBe('completed');
    // The instructions page refreshes itself and takes the payer on to the merchant.
    await browserPage.waitForURL(`${merchantUrl}/thanks?**`, { timeout: PATIENCE_MS });
    expect(await browserPage.textContent('#thanks')).toBe('Thank you for your order');
    expect(landed.filter((url) => url.startsWith('/thanks'))).toEqual([`/thanks?session_id=${session.id}`]);
    expect(cspViolations).toEqual([]);

    const read = (await call('GET', `/api/v1/business/checkout/sessions/${session.id}`)).body.data;
    expect(read).toMatchObject({ status: 'COMPLETED', collectionId, paymentId: null });
  });
});
