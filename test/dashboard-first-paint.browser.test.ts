import { Page } from 'playwright-core';
import { browserTestFor } from './support/browser';
import { dashboardSuite, screenshotScreen, signInThroughScreen } from './support/dashboard';
import { waitUntil } from './support/wait';

const browserTest = browserTestFor('dashboard-first-paint.browser');

/**
 * The page's first paint (docs/dashboard.md, Performance): the signed-in frame, written into the
 * page by the build and shown by the page's own inline script, before any of the app's scripts has
 * run. The app's scripts are held here to look at the page as the browser first paints it: the
 * frame in the session's mode, with its email and the current section, the test strip in test mode
 * only; no frame without a session or on the sign-in page. Released, the app's frame takes its place:
 * one frame on the page. A script the CSP refused would show as a console error and fail the test.
 */
describe("the dashboard's first paint: the frame before the app's scripts", () => {
  const suite = dashboardSuite();

  /** Holds the dashboard's scripts (not the page) until the returned function is called. */
  async function holdScripts(page: Page): Promise<() => Promise<void>> {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pattern = '**/dashboard/assets/**/*.js';
    await page.route(pattern, async (route) => {
      await gate;
      await route.continue().catch(() => undefined); // the page may have moved on meanwhile
    });
    return async () => {
      release();
      await page.unroute(pattern);
    };
  }

  /** Opens `path` with the scripts held: the page as first painted. */
  async function painted(page: Page, path: string) {
    const release = await holdScripts(page);
    await page.goto(`${suite.server.baseUrl}${path}`, { waitUntil: 'commit' });
    // The inline script runs as the page is parsed, before the first paint: by the end of the body
    // (the app's root) the frame is shown, or gone.
    await page.locator('#root').waitFor({ state: 'attached' });
    expect(await page.locator('#root > *').count()).toBe(0); // no script of the app has run
    return release;
  }

  const frame = (page: Page) => page.locator('#boot-frame');
  const activeEntry = (page: Page) => frame(page).locator('a[data-active="true"]');

  browserTest(
    'signed in: the frame in test mode, then in live mode, each replaced by the app; none without a session, on the sign-in page or with an expired session',
    async () => {
      const owner = await suite.server.signUp({ businessName: 'First Paint Co' });
      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, owner.email, owner.password);

      // Test mode (the default), on a payout schedule: Schedules is the current section.
      let release = await painted(page, '/dashboard/payouts/schedules/some-schedule');
      await expect(frame(page).isVisible()).resolves.toBe(true);
      expect(await activeEntry(page).allTextContents()).toEqual(['Schedules']);
      expect(await frame(page).locator('[data-frame-email]').textContent()).toBe(owner.email);
      expect(await frame(page).getByTestId('test-mode-banner').isVisible()).toBe(true);
      expect(await frame(page).locator('a[data-boot-path="sandbox"]').count()).toBe(1);
      expect(await frame(page).locator('input[value="test"]').isChecked()).toBe(true);
      expect(await frame(page).getByText('Loading…').isVisible()).toBe(true);
      await screenshotScreen(page, 'first-paint');
      await release();
      // The app's frame takes its place: one frame, one strip, the schedule screen's answer drawn in it.
      await page.getByRole('navigation', { name: 'Sections' }).waitFor();
      await expect(frame(page).count()).resolves.toBe(0);
      expect(await page.locator('nav').count()).toBe(1);
      expect(await page.getByTestId('test-mode-banner').count()).toBe(1);

      // Live mode, chosen in the app: the home page's frame has no strip and no sandbox, Live is on.
      await page.getByText('Live', { exact: true }).click();
      await waitUntil(async () => (await page.getByTestId('test-mode-banner').count()) === 0, 'live mode');
      release = await painted(page, '/dashboard');
      await expect(frame(page).isVisible()).resolves.toBe(true);
      expect(await activeEntry(page).allTextContents()).toEqual(['Home']);
      expect(await frame(page).getByTestId('test-mode-banner').count()).toBe(0);
      expect(await frame(page).locator('a[data-boot-path="sandbox"]').count()).toBe(0);
      expect(await frame(page).locator('input[value="live"]').isChecked()).toBe(true);
      await release();
      await page.getByRole('navigation', { name: 'Sections' }).waitFor();
      await expect(frame(page).count()).resolves.toBe(0);

      // The sign-in page draws no frame, even for a signed-in visitor.
      release = await painted(page, '/dashboard/sign-in');
      expect(await frame(page).count()).toBe(0);
      await release();

      // An expired session: no frame (the app sends the visitor to sign in).
      await page.goto(`${suite.server.baseUrl}/dashboard/payments`);
      await page.getByRole('navigation', { name: 'Sections' }).waitFor();
      await page.evaluate(`(() => {
        const key = 'tessera.dashboard.session';
        const session = JSON.parse(localStorage.getItem(key));
        localStorage.setItem(key, JSON.stringify({ ...session, expiresAt: Date.now() - 1000 }));
      })()`);
      release = await painted(page, '/dashboard/payments');
      expect(await frame(page).count()).toBe(0);
      await release();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();

      // A new visitor: no frame.
      const stranger = await suite.open();
      release = await painted(stranger.page, '/dashboard/payments');
      expect(await frame(stranger.page).count()).toBe(0);
      await release();
      await stranger.page.getByRole('button', { name: 'Sign in' }).waitFor();
    },
  );
});
