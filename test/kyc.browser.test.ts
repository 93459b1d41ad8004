import { Browser, Page } from 'playwright-core';
import { TestServer, startTestServer } from './support/harness';
import { USERS, apiKey, createEndUser } from './support/treasury';
import { expectAccessible } from './support/axe';
import { browserTestFor, docScreenshot, launchChromium } from './support/browser';

const browserTest = browserTestFor('kyc.browser');

/** How a button looks: what tells a destructive one from the other. */
const looksOf = (page: Page, selector: string) =>
  page.$eval(selector, (element: any) => {
    const style = (globalThis as any).getComputedStyle(element);
    return { background: style.backgroundColor, color: style.color, border: style.borderTopColor };
  });

/**
 * The sandbox's hosted KYC page (behind kycLinkUrl) in a real browser: the tester approves one
 * check and rejects another; Reject looks destructive and says what it does; a refused reasons
 * field is marked on the field; every state passes axe-core.
 */
describe('hosted KYC page in headless Chromium', () => {
  let server: TestServer;
  let browser: Browser | null = null;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await browser?.close();
    await server.close();
  });

  browserTest(
    'Reject stands apart from Approve (destructive style, a warning it describes), refused reasons are marked on their field, and both decisions reach the API; every state is accessible',
    async () => {
      const partner = await server.signUp({ businessName: 'Nimbus Wallet' });
      await server.setTreasury(partner.businessId, true);
      const startKyc = async (name: string) => {
        const user = await createEndUser(server, partner, { name });
        const started = await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner), body: {} });
        return { user, path: new URL(started.body.data.kycLinkUrl).pathname };
      };
      const statusOf = async (userId: string) =>
        (await server.request('GET', `${USERS}/${userId}/kyc`, { headers: apiKey(partner) })).body.data;

      browser = await launchChromium();
      const page = await browser.newPage();
      const rejected = await startKyc('Kofi Mensah');
      await page.goto(`${server.baseUrl}${rejected.path}`);
      expect(await page.getAttribute('#kyc-status', 'data-status')).toBe('PENDING');
      await expectAccessible(page, 'the pending KYC page');
      await docScreenshot(page, 'kyc.png');

      const approve = await looksOf(page, '#approve-button');
      const reject = await looksOf(page, '#reject-button');
      expect(reject.background).not.toBe(approve.background);
      expect(reject.color).not.toBe(approve.color);
      expect(reject.border).toBe('rgb(180, 35, 24)');
      // The warning is the button's description: a screen reader hears what rejecting does.
      expect(await page.getAttribute('#reject-button', 'aria-describedby')).toBe('reject-warning');
      expect(await page.textContent('#reject-warning')).toContain('Rejecting is final for this check');

      // Eleven reasons are more than the domain takes: the field is marked, worded for the tester, and focused.
      await page.fill('#reasons', Array.from({ length: 11 }, (_, index) => `reason_${index}`).join('\n'));
      await Promise.all([page.waitForSelector('#reasons-error'), page.click('#reject-button')]);
      expect(await page.getAttribute('#reasons', 'aria-invalid')).toBe('true');
      expect(await page.getAttribute('#reasons', 'aria-describedby')).toBe('reasons-error');
      expect(await page.textContent('#reasons-error')).toBe(
        'Enter 1 to 10 reasons, one per line, each at most 200 characters',
      );
      expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('reasons');
      await expectAccessible(page, 'the KYC page with refused reasons');
      expect((await statusOf(rejected.user.id)).status).toBe('PENDING');

      await page.fill('#reasons', 'document_expired\nselfie_mismatch');
      await Promise.all([page.waitForSelector('#rejection-reasons'), page.click('#reject-button')]);
      expect(await page.getAttribute('#kyc-status', 'data-status')).toBe('REJECTED');
      await expectAccessible(page, 'the rejected KYC page');
      expect(await statusOf(rejected.user.id)).toMatchObject({
        status: 'REJECTED',
        rejectionReasons: ['document_expired', 'selfie_mismatch'],
      });

      const approved = await startKyc('Amara Obi');
      await page.goto(`${server.baseUrl}${approved.path}`);
      await Promise.all([page.waitForSelector('#kyc-status[data-status=APPROVED]'), page.click('#approve-button')]);
      await expectAccessible(page, 'the approved KYC page');
      expect((await statusOf(approved.user.id)).status).toBe('APPROVED');
    },
    180_000,
  );
});
