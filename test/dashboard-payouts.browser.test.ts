import { Page } from 'playwright-core';
import { expectAccessible } from './support/axe';
import { browserTestFor } from './support/browser';
import { dashboardSuite, hasFocus, screenshotScreen, signInThroughScreen } from './support/dashboard';
import { TestMerchant, startDeliveringServer, waitUntil } from './support/harness';
import { bankDetails, createPayout, createRecipient, dashboard } from './support/payouts';

const browserTest = browserTestFor('dashboard-payouts.browser');
const PIN = '428193';

/** The status a page's main status badge shows (the heading's badge on a detail page). */
const badgeStatus = (page: Page) =>
  page.locator('main h2 + [data-status], main [data-status]').first().getAttribute('data-status');

/**
 * The payouts screens of the dashboard in headless Chromium against a server whose worker dispatches
 * payouts to the sandbox rail: a recipient created on screen, a quote, a payout confirmed with the
 * payout PIN (a wrong PIN refused and nothing written) that settles on screen without a reload; a
 * schedule created, edited, paused and resumed; a recipient beyond the first 100 found by typing; a
 * batch typed on screen; the review queue approved by an ADMIN; a VIEWER
 * without any write action; axe-core on each screen.
 */
describe('the dashboard: payouts', () => {
  const suite = dashboardSuite({ startServer: () => startDeliveringServer({ payoutSandboxSettleMs: 1_000 }) });

  /** Runs an operation as the merchant's dashboard sign-in and answers its data, failing on any error. */
  async function asOwner(merchant: TestMerchant, query: string, variables: Record<string, unknown>) {
    const response = await suite.server.graphql(query, variables, dashboard(merchant));
    expect(response.body.errors).toBeUndefined();
    return response.body.data;
  }

  /** A merchant with the payout PIN set (setPayoutPin) and 1,000 USD in its test wallet (sandboxFundWallet). */
  async function payingMerchant(businessName: string): Promise<TestMerchant> {
    const merchant = await suite.server.signUp({ businessName });
    const set = await asOwner(
      merchant,
      'mutation($input: SetPayoutPinInput!) { setPayoutPin(input: $input) { payoutPin { isSet } userErrors { code } } }',
      { input: { pin: PIN } },
    );
    expect(set.setPayoutPin.payoutPin.isSet).toBe(true);
    const funded = await asOwner(
      merchant,
      'mutation($input: SandboxFundWalletInput!) { sandboxFundWallet(input: $input) { wallet { id } userErrors { code } } }',
      { input: { amount: '1000.00', currency: 'USD' } },
    );
    expect(funded.sandboxFundWallet.userErrors).toEqual([]);
    return merchant;
  }

  const choose = async (page: Page, label: string, option: string | RegExp) => {
    await page.getByLabel(label, { exact: true }).first().click();
    await page.getByRole('option', { name: option }).click();
  };

  const typePin = async (page: Page, firstDigitLabel: string, pin: string) => {
    await page.getByLabel(firstDigitLabel, { exact: true }).focus();
    await page.keyboard.type(pin);
  };

  browserTest(
    'an owner adds a recipient, quotes, is refused a wrong PIN with nothing written, pays with the right PIN and watches the payout settle without a reload',
    async () => {
      const owner = await payingMerchant('Payout Goods');
      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, owner.email, owner.password);

      await page.getByRole('link', { name: 'Recipients' }).click();
      await page.getByText('No recipients yet').waitFor();
      await expectAccessible(page, 'the recipients screen, empty');

      // A bank account without its account number is refused on its field before anything is sent.
      await page.getByLabel('Name', { exact: true }).fill('Ada Supplier');
      await page.getByLabel('Account holder').fill('Ada Obi');
      await page.getByLabel('Country').fill('NG');
      await page.getByLabel('Currency received').fill('NGN');
      await page.getByLabel('Bank code').fill('058');
      await page.getByLabel('Bank name').fill('GTBank');
      await page.getByRole('button', { name: 'Add recipient' }).click();
      await page.getByText('Enter the account number').waitFor();
      await page.getByLabel('Account number').fill('0123456789');
      await page.getByRole('button', { name: 'Add recipient' }).click();
      await page.getByRole('cell', { name: 'Ada Supplier', exact: true }).waitFor();
      const recipients = await suite.server.runtime.dataSource.query(
        'SELECT id, label, screened_at FROM payout_recipients WHERE business_id = $1',
        [owner.businessId],
      );
      expect(recipients).toHaveLength(1);
      expect(recipients[0].label).toBe('Ada Supplier');
      expect(recipients[0].screened_at).not.toBeNull();
      expect(await page.getByRole('table', { name: 'Payout recipients' }).textContent()).toContain('****6789');
      await expectAccessible(page, 'the recipients screen');
      await screenshotScreen(page, 'payouts-recipients');

      await page.getByRole('link', { name: 'Payouts', exact: true }).click();
      await page.getByText('No payouts yet').waitFor();
      await expectAccessible(page, 'the payouts list, empty');
      await page.getByRole('link', { name: 'Send a payout' }).click();
      await choose(page, 'Recipient', /Ada Supplier/);
      await choose(page, 'From wallet', /^USD/);
      await page.getByLabel('Amount', { exact: true }).fill('100.00');
      await page.getByRole('button', { name: 'Get a quote' }).click();
      const quote = page.getByTestId('quote');
      await quote.waitFor();
      expect(await quote.textContent()).toContain('1542.25000000');
      expect(await quote.textContent()).toMatch(/154,225\.00/);
      await expectAccessible(page, 'the quote');
      await screenshotScreen(page, 'payouts-send');

      await typePin(page, 'Payout PIN digit 1', '000000');
      await page.getByRole('button', { name: 'Send payout' }).click();
      await page.getByTestId('pin-error').waitFor();
      expect(await page.getByTestId('pin-error').textContent()).toMatch(/PIN/i);
      const none = await suite.server.runtime.dataSource.query(
        'SELECT count(*)::int AS n FROM payouts WHERE business_id = $1',
        [owner.businessId],
      );
      expect(none[0].n).toBe(0);
      await expectAccessible(page, 'a wrong PIN refused');

      await typePin(page, 'Payout PIN digit 1', PIN);
      await page.getByRole('button', { name: 'Send payout' }).click();
      await page.waitForURL(/\/dashboard\/payouts\/[0-9a-f-]{36}$/);
      const payoutId = page.url().split('/').pop()!;
      const loads: string[] = [];
      page.on('load', () => loads.push(page.url()));
      await page.getByRole('heading', { name: /to Ada Supplier/ }).waitFor();
      await waitUntil(async () => (await badgeStatus(page)) === 'SETTLED', 'the payout shows SETTLED', 60_000);
      expect(loads).toEqual([]);
      const [payout] = await suite.server.runtime.dataSource.query(
        'SELECT status, amount::text AS amount, recipient_id FROM payouts WHERE id = $1',
        [payoutId],
      );
      expect(payout).toEqual({ status: 'SETTLED', amount: '10000', recipient_id: recipients[0].id });
      await page.getByText(/sbx_po_/).waitFor();
      await expectAccessible(page, 'a settled payout');
      await screenshotScreen(page, 'payouts-payout');

      await page.getByRole('link', { name: '← Payouts' }).click();
      await page.locator(`tr[data-row-id="${payoutId}"] [data-status="SETTLED"]`).waitFor();
      await expectAccessible(page, 'the payouts list');
      await screenshotScreen(page, 'payouts');
    },
    600_000,
  );

  browserTest(
    'an owner creates a monthly schedule with the PIN, edits its cap, pauses and resumes it',
    async () => {
      const owner = await payingMerchant('Schedule Goods');
      await createRecipient(suite.server, owner, bankDetails('6789'), 'Rent Landlord');
      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, owner.email, owner.password);

      await page.getByRole('link', { name: 'Schedules' }).click();
      await page.getByText('No schedules yet').waitFor();
      await expectAccessible(page, 'the schedules screen, empty');
      await page.getByLabel('Schedule name').fill('Monthly rent');
      await page.getByLabel('Day of month').fill('1');
      await page.getByLabel('First run').fill('2027-01-01T10:00');
      await choose(page, 'Pay recipient', /Rent Landlord/);
      await choose(page, 'From wallet', 'USD');
      await page.getByLabel('Amount per run').fill('25.00');
      await page.getByLabel('Cap per run (USD)').fill('100.00');
      await typePin(page, 'Schedule PIN digit 1', PIN);
      await page.getByRole('button', { name: 'Create schedule' }).click();

      await page.waitForURL(/\/dashboard\/payouts\/schedules\/[0-9a-f-]{36}$/);
      const scheduleId = page.url().split('/').pop()!;
      await page.getByRole('heading', { name: 'Monthly rent' }).waitFor();
      const statusOf = async () =>
        (
          await suite.server.runtime.dataSource.query('SELECT status FROM payout_schedules WHERE id = $1', [scheduleId])
        )[0]?.status;
      expect(await statusOf()).toBe('ACTIVE');
      await page.getByText('No run yet').waitFor();
      // The navigation marks the most specific section only: Schedules, not Payouts as well.
      const nav = page.getByRole('navigation', { name: 'Sections' });
      expect(await nav.getByRole('link', { name: 'Schedules' }).getAttribute('data-active')).toBe('true');
      expect(await nav.getByRole('link', { name: 'Payouts' }).getAttribute('data-active')).toBeNull();
      await expectAccessible(page, 'a schedule');
      await screenshotScreen(page, 'payouts-schedule');

      await page.getByLabel('Cap per run (USD)').fill('200.00');
      await page.getByRole('button', { name: 'Save schedule' }).click();
      await waitUntil(
        async () =>
          (
            await suite.server.runtime.dataSource.query(
              'SELECT max_run_amount_usd::text AS cap FROM payout_schedules WHERE id = $1',
              [scheduleId],
            )
          )[0].cap.startsWith('200'),
        'the cap is saved',
        60_000,
      );

      await page.getByRole('button', { name: 'Pause' }).click();
      await page.locator('main [data-status="PAUSED"]').first().waitFor();
      expect(await statusOf()).toBe('PAUSED');
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.locator('main [data-status="ACTIVE"]').first().waitFor();
      expect(await statusOf()).toBe('ACTIVE');

      await page.getByRole('link', { name: '← Schedules' }).click();
      await page.locator(`tr[data-row-id="${scheduleId}"] [data-status="ACTIVE"]`).waitFor();
      await expectAccessible(page, 'the schedules list');
      await screenshotScreen(page, 'payouts-schedules');
    },
    600_000,
  );

  browserTest(
    'with 101 recipients the 101st (beyond the first page of 100) is found by typing its name, in Send a payout and in a batch typed on screen whose refused row shows its error on the row; the batch made goes to its page; a VIEWER has no batch form',
    async () => {
      const owner = await payingMerchant('Many Suppliers');
      // The oldest recipient is the 101st of the newest-first list: after it, 100 newer ones.
      const far = await createRecipient(
        suite.server,
        owner,
        bankDetails('6789', { accountNumber: '9900006789' }),
        'Zed Far',
      );
      for (let start = 0; start < 100; start += 20) {
        await Promise.all(
          Array.from({ length: 20 }, (_, offset) =>
            createRecipient(
              suite.server,
              owner,
              bankDetails('6789', { accountNumber: `${1_000_000 + start + offset}6789` }),
              `Bulk supplier ${start + offset + 1}`,
            ),
          ),
        );
      }
      const [{ n }] = await suite.server.runtime.dataSource.query(
        'SELECT count(*)::int AS n FROM payout_recipients WHERE business_id = $1',
        [owner.businessId],
      );
      expect(n).toBe(101);

      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, owner.email, owner.password);
      await page.goto(`${suite.server.baseUrl}/dashboard/payouts/send`);
      await page.getByRole('combobox', { name: 'Recipient', exact: true }).fill('zed');
      await page.getByRole('option', { name: /Zed Far/ }).click();
      await choose(page, 'From wallet', /^USD/);
      await page.getByLabel('Amount', { exact: true }).fill('12.00');
      await page.getByRole('button', { name: 'Get a quote' }).click();
      await page.getByTestId('quote').waitFor();
      await expectAccessible(page, 'a quote to the 101st recipient');
      await typePin(page, 'Payout PIN digit 1', PIN);
      await page.getByRole('button', { name: 'Send payout' }).click();
      await page.waitForURL(/\/dashboard\/payouts\/[0-9a-f-]{36}$/);
      await page.getByRole('heading', { name: /to Zed Far/ }).waitFor();
      const [sent] = await suite.server.runtime.dataSource.query('SELECT recipient_id FROM payouts WHERE id = $1', [
        page.url().split('/').pop(),
      ]);
      expect(sent.recipient_id).toBe(far.id);

      await page.goto(`${suite.server.baseUrl}/dashboard/payouts/batches`);
      await page.getByRole('link', { name: 'New batch' }).click();
      await page.waitForURL('**/dashboard/payouts/batches/new');
      await page.getByLabel('Batch name').fill('Far and near');
      await page.getByRole('combobox', { name: 'Row 1: recipient', exact: true }).fill('Zed');
      await page.getByRole('option', { name: /Zed Far/ }).click();
      await page.getByLabel('Row 1: amount').fill('20.00');
      await choose(page, 'Row 1: currency', /^USD/);
      await page.getByLabel('Row 1: reference').fill('INV-1');
      await page.getByRole('button', { name: 'Add a row' }).click();
      await page.getByRole('combobox', { name: 'Row 2: recipient', exact: true }).fill('supplier 42');
      await page.getByRole('option', { name: /Bulk supplier 42/ }).click();
      await page.getByLabel('Row 2: amount').fill('0.00');
      // A new row starts in the previous row's currency.
      expect(await page.getByLabel('Row 2: currency').first().inputValue()).toMatch(/^USD/);
      await page.getByRole('button', { name: 'Add a row' }).click();
      await page.getByRole('button', { name: 'Remove row 3' }).click();
      await page.getByRole('button', { name: 'Create batch' }).click();

      const refusedAmount = page.getByLabel('Row 2: amount');
      await waitUntil(
        async () => (await refusedAmount.getAttribute('aria-invalid')) === 'true',
        "the API's refusal of row 2's amount shows on that field",
      );
      expect(await page.getByTestId('batch-row-2').textContent()).toContain('greater than zero');
      expect(await page.getByLabel('Row 1: amount').getAttribute('aria-invalid')).not.toBe('true');
      const batches = () =>
        suite.server.runtime.dataSource.query<Array<{ id: string; name: string; item_count: number }>>(
          'SELECT id, name, item_count FROM payout_batches WHERE business_id = $1',
          [owner.businessId],
        );
      expect(await batches()).toEqual([]);
      await expectAccessible(page, 'a batch with a refused row');
      await screenshotScreen(page, 'payouts-new-batch');

      await refusedAmount.fill('5.00');
      await page.getByRole('button', { name: 'Create batch' }).click();
      await page.waitForURL(/\/dashboard\/payouts\/batches\/[0-9a-f-]{36}$/);
      await page.getByRole('heading', { name: 'Far and near' }).waitFor();
      await page.getByRole('cell', { name: 'Zed Far', exact: true }).waitFor();
      await page.getByRole('cell', { name: 'Bulk supplier 42', exact: true }).waitFor();
      const [made] = await batches();
      expect(page.url().endsWith(made.id)).toBe(true);
      const items = await suite.server.runtime.dataSource.query(
        'SELECT p.recipient_id, p.amount::text AS amount, p.reference FROM payouts p WHERE p.batch_id = $1 ORDER BY p.amount DESC',
        [made.id],
      );
      expect(items).toEqual([
        { recipient_id: far.id, amount: '2000', reference: 'INV-1' },
        { recipient_id: expect.any(String), amount: '500', reference: null },
      ]);

      const viewer = await suite.server.signUp({ businessName: 'Batch Viewer Own' });
      await suite.server.addTeamMember(owner, viewer, 'VIEWER');
      const second = await suite.open();
      await signInThroughScreen(second.page, suite.server.baseUrl, viewer.email, viewer.password);
      await choose(second.page, 'Business', 'Many Suppliers');
      await second.page.goto(`${suite.server.baseUrl}/dashboard/payouts/batches`);
      await second.page.getByRole('link', { name: 'Far and near' }).waitFor();
      expect(await second.page.getByRole('link', { name: 'New batch' }).count()).toBe(0);
      await second.page.goto(`${suite.server.baseUrl}/dashboard/payouts/batches/new`);
      await second.page.getByText('Your role cannot create batches').waitFor();
      expect(await second.page.getByRole('button', { name: 'Create batch' }).count()).toBe(0);
      await expectAccessible(second.page, 'the batch form, as a VIEWER');
    },
    600_000,
  );

  browserTest(
    'an ADMIN approves a held payout in the review queue; a VIEWER sees no write action',
    async () => {
      const owner = await payingMerchant('Review Goods');
      const held = await createRecipient(suite.server, owner, bankDetails('2222'), 'Held Supplier');
      const created = await createPayout(suite.server, owner, { recipientId: held.id, amount: '40.00' });
      expect(created.body.data.status).toBe('PENDING_REVIEW');
      const payoutId = created.body.data.id as string;

      const admin = await suite.server.signUp({ businessName: 'Admin Own Co' });
      await suite.server.addTeamMember(owner, admin, 'ADMIN');
      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, admin.email, admin.password);
      await choose(page, 'Business', 'Review Goods');
      await page.goto(`${suite.server.baseUrl}/dashboard/payouts`);
      await page.getByRole('link', { name: 'Review queue' }).click();
      await page.getByRole('cell', { name: 'Held Supplier', exact: true }).waitFor();
      await expectAccessible(page, 'the review queue');
      await screenshotScreen(page, 'payouts-review');
      // The reject dialog, opened and closed by keyboard, hands the focus back to its button.
      const rejectButton = page.getByRole('button', { name: /^Reject/ });
      await rejectButton.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Reject the payout' }).waitFor();
      await expect(hasFocus(page.getByLabel('Reason'))).resolves.toBe(true);
      await expectAccessible(page, 'the reject dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await waitUntil(() => hasFocus(rejectButton), 'the focus back on the Reject button');
      await page.getByRole('button', { name: /^Approve/ }).click();
      await page.getByText('Nothing to review').waitFor();
      const [approved] = await suite.server.runtime.dataSource.query('SELECT status FROM payouts WHERE id = $1', [
        payoutId,
      ]);
      expect(approved.status).not.toBe('PENDING_REVIEW');
      await expectAccessible(page, 'the review queue, empty');

      // A batch made through the API: its list and page, read by the ADMIN.
      const paid = await createRecipient(suite.server, owner, bankDetails('6789'), 'Batch Supplier');
      const batch = await asOwner(
        owner,
        'mutation($input: CreatePayoutBatchInput!) { createPayoutBatch(input: $input) { batch { id } userErrors { code } } }',
        { input: { name: 'November suppliers', items: [{ recipientId: paid.id, amount: '15.00', currency: 'USD' }] } },
      );
      const batchId = batch.createPayoutBatch.batch.id as string;
      await page.getByRole('link', { name: '← Payouts' }).click();
      await page.getByRole('link', { name: 'Batches' }).click();
      await page.getByRole('link', { name: 'November suppliers' }).click();
      await page.waitForURL(`**/dashboard/payouts/batches/${batchId}`);
      await page.getByRole('cell', { name: 'Batch Supplier', exact: true }).waitFor();
      await page.locator('main [data-status="COMPLETED"]').first().waitFor({ timeout: 60_000 });
      await expectAccessible(page, 'a batch');
      await screenshotScreen(page, 'payouts-batch');

      const viewer = await suite.server.signUp({ businessName: 'Viewer Own Co' });
      await suite.server.addTeamMember(owner, viewer, 'VIEWER');
      const second = await suite.open();
      const view = second.page;
      await signInThroughScreen(view, suite.server.baseUrl, viewer.email, viewer.password);
      await choose(view, 'Business', 'Review Goods');
      await view.goto(`${suite.server.baseUrl}/dashboard/payouts`);
      await view.locator(`tr[data-row-id="${payoutId}"]`).waitFor();
      expect(await view.getByRole('link', { name: 'Send a payout' }).count()).toBe(0);
      expect(await view.getByRole('link', { name: 'Review queue' }).count()).toBe(0);
      await view.locator(`tr[data-row-id="${payoutId}"] a`).click();
      await view.getByRole('heading', { name: /to Held Supplier/ }).waitFor();
      expect(
        await view
          .getByRole('button')
          .filter({ hasText: /Approve|Reject|Cancel payout|Mark/ })
          .count(),
      ).toBe(0);
      await view.getByRole('link', { name: 'Recipients' }).click();
      await view.getByRole('cell', { name: 'Held Supplier', exact: true }).waitFor();
      expect(await view.getByRole('button', { name: 'Add recipient' }).count()).toBe(0);
      expect(await view.getByRole('button', { name: /^Archive/ }).count()).toBe(0);
      await view.getByRole('link', { name: 'Schedules' }).click();
      await view.getByText('No schedules yet').waitFor();
      expect(await view.getByRole('button', { name: 'Create schedule' }).count()).toBe(0);
      await expectAccessible(view, 'the schedules screen as a VIEWER');
    },
    600_000,
  );
});
