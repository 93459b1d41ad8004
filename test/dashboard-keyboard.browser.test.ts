import { expectAccessible } from './support/axe';
import { browserTestFor } from './support/browser';
import {
  chooseByKeyboard,
  chooseNativeByKeyboard,
  dashboardSuite,
  expectFocusVisible,
  focusedElement,
  hasFocus,
  screenshotScreen,
  tabTo,
} from './support/dashboard';
import { waitUntil } from './support/harness';
import { card, charge, chargingMerchant } from './support/payments';

const browserTest = browserTestFor('dashboard-keyboard.browser');

/**
 * Issue 31, "everything works by keyboard": the dashboard driven with the keys alone (Tab,
 * Shift+Tab, Enter, the arrows, Escape; text typed into the field the Tab key reached), never the
 * mouse. Every stop the test makes shows where the focus is (an outline or a box shadow).
 */
describe('the dashboard by keyboard only', () => {
  const suite = dashboardSuite();

  browserTest(
    'sign in, skip to the content, open a payment and refund part of it, block a value, close a modal with Escape, switch mode and business',
    async () => {
      const { server } = suite;
      const merchant = await chargingMerchant(server);
      const other = await server.signUp({ businessName: 'Keyboard Other Co' });
      await server.addTeamMember(other, merchant, 'ADMIN');
      const charged = await charge(server, merchant, {
        amount: 42.5,
        currency: 'usd',
        card: card(),
        email: 'keys@example.com',
      });
      const paymentId = charged.body.data.id as string;

      const { page } = await suite.open();
      const main = page.locator('#main');
      const navigation = page.getByRole('navigation', { name: 'Sections' });

      // Sign in: Tab to each field, type, Enter submits.
      await page.goto(`${server.baseUrl}/dashboard/sign-in`);
      await tabTo(page, page.getByLabel('Email'));
      await page.keyboard.type(merchant.email);
      await tabTo(page, page.getByLabel('Password', { exact: true }));
      await page.keyboard.type(merchant.password);
      await screenshotScreen(page, 'sign-in');
      await page.keyboard.press('Enter');
      await navigation.waitFor();

      // From the top of a screen the first Tab is "Skip to content", in sight; Enter moves on to the screen.
      await page.reload();
      await page.getByTestId('test-mode-banner').waitFor();
      await page.keyboard.press('Tab');
      expect((await focusedElement(page)).name).toBe('a "Skip to content"');
      await expectFocusVisible(page);
      const skip = await page.getByRole('link', { name: 'Skip to content' }).boundingBox();
      expect(skip).not.toBeNull();
      expect(skip!.x).toBeGreaterThanOrEqual(0);
      expect(skip!.y).toBeGreaterThanOrEqual(0);
      await expectAccessible(page, 'the shell with the skip link in focus');
      await page.keyboard.press('Enter');
      expect((await focusedElement(page)).id).toBe('main');
      await page.keyboard.press('Tab');
      expect(await hasFocus(main)).toBe(true);
      await expectFocusVisible(page);

      // Payments, by the navigation; the payment, by its row's link.
      await tabTo(page, navigation.getByRole('link', { name: 'Payments' }), { backwards: true });
      await page.keyboard.press('Enter');
      await page.waitForURL('**/dashboard/payments');
      await tabTo(page, page.locator(`tr[data-row-id="${paymentId}"] a`));
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Refund', exact: true }).waitFor();

      // A partial refund: amount, Tab, reason, Enter.
      await tabTo(page, page.getByLabel('Amount (USD)'));
      await page.keyboard.type('10.00');
      await page.keyboard.press('Tab');
      await expect(hasFocus(page.getByLabel('Reason', { exact: true }))).resolves.toBe(true);
      await page.keyboard.type('damaged box');
      await page.keyboard.press('Enter');
      await page.locator('tr[data-refund-id]').waitFor();
      const refunds = await server.runtime.dataSource.query(
        `SELECT amount::text AS amount, reason FROM refunds WHERE payment_id = $1`,
        [paymentId],
      );
      expect(refunds).toEqual([{ amount: '1000', reason: 'damaged box' }]);

      // Settings: a block-list entry, its kind picked with the arrows.
      await tabTo(page, navigation.getByRole('link', { name: 'Settings' }), { backwards: true });
      await page.keyboard.press('Enter');
      const blockForm = page.getByRole('form', { name: 'Block a value' });
      await tabTo(page, blockForm.getByRole('combobox', { name: 'Kind' }));
      await chooseNativeByKeyboard(page, 'IP address');
      await page.keyboard.press('Tab');
      await page.keyboard.type('203.0.113.9');
      await page.keyboard.press('Tab');
      await page.keyboard.type('typed by keyboard');
      await page.keyboard.press('Enter');
      await page.getByRole('cell', { name: '203.0.113.9', exact: true }).waitFor();
      expect(
        await server.runtime.dataSource.query(
          `SELECT type, value, description FROM fraud_blocklist WHERE business_id = $1`,
          [merchant.businessId],
        ),
      ).toEqual([{ type: 'ip', value: '203.0.113.9', description: 'typed by keyboard' }]);

      // A modal: Enter opens it with the focus inside, Escape closes it and the focus is back on its button.
      await tabTo(page, navigation.getByRole('link', { name: 'API keys' }), { backwards: true });
      await page.keyboard.press('Enter');
      const regenerate = page.getByRole('button', { name: 'Regenerate the test key' });
      await tabTo(page, regenerate);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Regenerate the test key?' });
      await dialog.waitFor();
      expect(await hasFocus(dialog)).toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await hasFocus(regenerate)).toBe(true);
      await expectFocusVisible(page);

      // The mode switch: its radios move with the arrows.
      await tabTo(page, page.getByRole('radio', { name: 'Test' }), { backwards: true });
      await page.keyboard.press('ArrowRight');
      await page.getByTestId('test-mode-banner').waitFor({ state: 'detached' });
      // The app is drawn anew for the other mode; the focus is back on the switch, not at the top of the page.
      const live = page.getByRole('radio', { name: 'Live' });
      expect(await live.isChecked()).toBe(true);
      await waitUntil(() => hasFocus(live), 'the focus back on Live');
      await expectFocusVisible(page);
      await page.keyboard.press('ArrowLeft');
      await page.getByTestId('test-mode-banner').waitFor();

      // The business switch: Shift+Tab back to it, the other business picked with the arrows and Enter.
      const business = page.getByRole('combobox', { name: 'Business' });
      await tabTo(page, business, { backwards: true });
      await chooseByKeyboard(page, 'Keyboard Other Co');
      await expect(business.inputValue()).resolves.toBe('Keyboard Other Co');
      await waitUntil(() => hasFocus(business), 'the focus back on the business switch');
      await expectFocusVisible(page);
    },
    600_000,
  );
});
