import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser } from 'playwright-core';
import { TestServer, startTestServer } from './support/harness';
import { api, pathOf } from './support/checkout';
import { expectAccessible } from './support/axe';
import { browserTestFor, docScreenshot, launchChromium } from './support/browser';

const browserTest = browserTestFor('collections.browser');

/**
 * A checkout session offering local rails, in a real browser: the payer picks mobile money on the
 * hosted page, lands on Tessera's instructions page, pays (the sandbox helper plays the payer's
 * phone), and the page takes them on to the merchant's success URL once the collection completed.
 * The network is chosen by name, a refused phone is marked on its field, and every state passes axe.
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
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Thanks</title><h1 id="thanks">Thank you for your order</h1>');
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

  browserTest(
    'a payer picks mobile money (the network by its name), is shown a refused phone on its field, sees the prompt instructions, pays, and lands on successUrl; the collection (source session) and the session complete',
    async () => {
      const merchant = await server.signUp({ businessName: 'Kente Crafts' });
      const call = api(server, merchant);
      const created = await call('POST', '/api/v1/business/checkout/session', {
        amount: '75.00',
        currency: 'ghs',
        customerEmail: 'kofi@example.com',
        successUrl: `${merchantUrl}/thanks`,
        paymentMethods: ['card', 'momo'],
      });
      expect(created.status).toBe(201);
      const session = created.body.data;

      browser = await launchChromium();
      const browserPage = await browser.newPage();
      const cspViolations: string[] = [];
      browserPage.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
      await browserPage.goto(`${server.baseUrl}${pathOf(session.checkoutUrl)}`);
      expect(await browserPage.textContent('.amount')).toBe('75.00 GHS');
      await expectAccessible(browserPage, 'the checkout page with mobile money');
      await docScreenshot(browserPage, 'checkout-momo.png');
      // The networks are offered by the names payers know them by, in a select styled like the text fields.
      expect(
        await browserPage.$$eval('#momo-network option', (options) =>
          options.map((option: any) => [option.value, option.textContent]),
        ),
      ).toEqual([
        ['mtn-gh', 'MTN Mobile Money'],
        ['vodafone-gh', 'Vodafone Cash'],
        ['airteltigo-gh', 'AirtelTigo Money'],
      ]);
      const looks = (selector: string) =>
        browserPage.$eval(selector, (element: any) => {
          const style = (globalThis as any).getComputedStyle(element);
          return {
            appearance: style.appearance,
            border: style.borderTopColor,
            radius: style.borderTopLeftRadius,
            padding: style.paddingLeft,
            width: style.width,
          };
        });
      const select = await looks('#momo-network');
      expect(select.appearance).toBe('none');
      expect({ ...select, appearance: undefined }).toEqual({ ...(await looks('#momo-phone')), appearance: undefined });

      // The domain refuses the phone: the page says so on the phone field, in a payer's words, and keeps the choice.
      await browserPage.fill('#momo-phone', '12');
      await browserPage.selectOption('#momo-network', 'vodafone-gh');
      await Promise.all([
        browserPage.waitForLoadState('load'),
        browserPage.waitForSelector('#momo-phone-error'),
        browserPage.click('#pay-momo'),
      ]);
      expect(await browserPage.getAttribute('#momo-phone', 'aria-invalid')).toBe('true');
      expect(await browserPage.getAttribute('#momo-phone', 'aria-describedby')).toBe('momo-phone-error');
      expect(await browserPage.textContent('#momo-phone-error')).toBe(
        'Enter your mobile money number with its country code, like +233 24 123 4567',
      );
      expect(await browserPage.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('momo-phone');
      expect(await browserPage.inputValue('#momo-network')).toBe('vodafone-gh');
      await expectAccessible(browserPage, 'the checkout page with a refused phone');

      await browserPage.fill('#momo-phone', '+233 24 123 4567');
      await browserPage.selectOption('#momo-network', 'mtn-gh');
      await Promise.all([
        browserPage.waitForURL(/\/collect\/col_test_/, { timeout: 60_000 }),
        browserPage.click('#pay-momo'),
      ]);
      expect(await browserPage.textContent('#momo-prompt')).toContain('MTN Mobile Money');
      await expectAccessible(browserPage, 'the collection page');
      await docScreenshot(browserPage, 'collection.png');
      expect(await browserPage.getAttribute('#collection-status', 'data-status')).toBe('pending');
      const collectionId = await browserPage.getAttribute('#collection-status', 'data-collection-id');

      const collection = (await call('GET', `/api/v1/business/collections/${collectionId}`)).body.data;
      expect(collection).toMatchObject({
        source: 'session',
        status: 'pending',
        amount: 7_500,
        currency: 'ghs',
        country: 'GH',
        channel: { rail: 'momo', channelId: 'sbx_ch_gh_momo', networkId: 'mtn-gh' },
        instructions: { kind: 'momo_prompt', phone: '+233 24 123 4567' },
      });

      // The payer approves the prompt on their phone: the sandbox helper sends the exact amount.
      const paid = await call('POST', `/api/v1/business/sandbox/collections/${collectionId}/pay`, { amount: 7_500 });
      expect(paid.body.data.status).toBe('completed');
      // The instructions page refreshes itself and takes the payer on to the merchant.
      await browserPage.waitForURL(`${merchantUrl}/thanks?**`, { timeout: 60_000 });
      expect(await browserPage.textContent('#thanks')).toBe('Thank you for your order');
      expect(landed.filter((url) => url.startsWith('/thanks'))).toEqual([`/thanks?session_id=${session.id}`]);
      expect(cspViolations).toEqual([]);

      const read = (await call('GET', `/api/v1/business/checkout/sessions/${session.id}`)).body.data;
      expect(read).toMatchObject({ status: 'COMPLETED', collectionId, paymentId: null });
    },
    180_000,
  );
});
