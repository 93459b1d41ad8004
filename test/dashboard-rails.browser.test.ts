import { Page } from 'playwright-core';
import { expectAccessible } from './support/axe';
import { browserTestFor } from './support/browser';
import { dashboardSuite, screenshotScreen, signInThroughScreen, watch } from './support/dashboard';
import { TestMerchant, startDeliveringServer, waitUntil } from './support/harness';
import { PATIENCE_MS, within } from './support/wait';
import { TREASURY_PAYOUTS, activeEndUser, apiKey, createWallet, deposit, payoutBody } from './support/treasury';

const browserTest = browserTestFor('dashboard-rails.browser');
const LIVE_MS = 60_000;

/** The status a screen's headline badge shows (the first status badge in the main area). */
const headlineStatus = (page: Page) => page.locator('main [data-status]').first().getAttribute('data-status');
const rowStatus = (page: Page, id: string) =>
  page.locator(`tr[data-row-id="${id}"] [data-status]`).first().getAttribute('data-status');
const nav = (page: Page) => page.getByRole('navigation', { name: 'Sections' });

/** Chooses `option` in the Mantine Select labelled `label`. */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).and(page.locator('input')).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * The collections and treasury screens of the dashboard in headless Chromium against a real server:
 * a collection opened on screen shows the payer's bank details and completes live when the sandbox
 * pays it; a treasury business adds an end-user, watches KYC approved on the hosted page reach the
 * screen, opens a wallet with deposit instructions, funds it and sends a payout that completes
 * live; a treasury payout's page follows it live and cancels it while pending; without treasury the
 * navigation has no treasury entry; a VIEWER sees no write action.
 */
describe('the dashboard: collections and treasury', () => {
  // With the job worker: a treasury payout is dispatched and settled by durable jobs.
  const suite = dashboardSuite({ startServer: () => startDeliveringServer() });

  const asOwner = (merchant: TestMerchant) => ({
    authorization: `Bearer ${merchant.token}`,
    'x-service-business-id': merchant.businessId,
  });

  browserTest(
    'a merchant without treasury opens a bank-transfer collection, sees its bank details, and watches it complete live when the sandbox pays it; an amount below the channel minimum is refused on its field; a mobile-money collection asks for the network and shows the prompt',
    async () => {
      const merchant = await suite.server.signUp({ businessName: 'Lagos Goods' });
      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, merchant.email, merchant.password);

      await nav(page).getByRole('link', { name: 'Collections' }).click();
      await page.getByText('No collections yet').waitFor();
      // The shell knows the business (its name in the header): no treasury entry is drawn for it.
      await page.getByRole('banner').getByText('Lagos Goods').waitFor();
      expect(
        await nav(page)
          .getByRole('link', { name: /Treasury/ })
          .count(),
      ).toBe(0);
      await expectAccessible(page, 'the empty collections list');

      await choose(page, 'Channel', 'NG · NGN · Bank transfer (sandbox-bank)');
      await page.getByLabel('Amount (NGN)').fill('50');
      await page.getByRole('button', { name: 'Create collection' }).click();
      const amountField = page.getByLabel('Amount (NGN)');
      await waitUntil(
        async () => (await amountField.getAttribute('aria-invalid')) === 'true',
        'the amount below the minimum is marked on its field',
      );
      await expectAccessible(page, 'a refused collection');
      const [{ count }] = await suite.server.runtime.dataSource.query(
        `SELECT count(*)::int AS count FROM collections WHERE business_id = $1`,
        [merchant.businessId],
      );
      expect(count).toBe(0);

      await amountField.fill('250.00');
      await page.getByLabel('Payer’s name').fill('Ada Eze');
      await page.getByRole('button', { name: 'Create collection' }).click();
      await page.waitForURL(/\/dashboard\/collections\/[0-9a-f-]{36}$/);
      const collectionId = page.url().split('/').pop()!;
      const instructions = page.getByTestId('collection-instructions');
      await instructions.getByText('Account number').waitFor();
      const [row] = await suite.server.runtime.dataSource.query(
        `SELECT amount::text AS amount, currency, status, instructions FROM collections WHERE id = $1`,
        [collectionId],
      );
      expect(row).toMatchObject({ amount: '25000', status: 'pending' });
      expect(await instructions.textContent()).toContain(
        row.instructions.account_number ?? row.instructions.accountNumber,
      );
      expect(await headlineStatus(page)).toBe('PENDING');
      await expectAccessible(page, 'a pending collection');
      await screenshotScreen(page, 'collections-collection');

      const loads: string[] = [];
      page.on('load', () => loads.push(page.url()));
      await page.getByRole('button', { name: 'Pay this collection (sandbox)' }).click();
      await waitUntil(async () => (await headlineStatus(page)) === 'COMPLETED', 'the collection completes', LIVE_MS);
      expect(loads).toEqual([]);
      const [paid] = await suite.server.runtime.dataSource.query(
        `SELECT status, settlement_net::text AS net FROM collections WHERE id = $1`,
        [collectionId],
      );
      expect(paid.status).toBe('completed');
      expect(Number(paid.net)).toBeGreaterThan(0);
      expect(await page.getByText('Credited (USDC)').locator('..').textContent()).not.toContain('—');
      await expectAccessible(page, 'a completed collection');

      // Mobile money: the network is asked for, and the prompt sent to the payer's phone is shown.
      await page.getByRole('link', { name: '← Collections' }).click();
      await page.locator(`tr[data-row-id="${collectionId}"]`).waitFor();
      expect(await rowStatus(page, collectionId)).toBe('COMPLETED');
      await choose(page, 'Channel', 'GH · GHS · Mobile money (sandbox-momo)');
      await page.getByLabel('Amount (GHS)').fill('12.5');
      await page.getByLabel('Payer’s phone').fill('+233241234567');
      await page.getByRole('button', { name: 'Create collection' }).click();
      await page.getByText('Choose the payer’s network').waitFor();
      await choose(page, 'Network', 'mtn-gh');
      await page.getByRole('button', { name: 'Create collection' }).click();
      await page.waitForURL(
        (url) => !url.pathname.endsWith(collectionId) && /collections\/[0-9a-f-]{36}$/.test(url.pathname),
      );
      const momoId = page.url().split('/').pop()!;
      await instructions.getByText('Prompt sent to').waitFor();
      expect(await instructions.textContent()).toContain('+233241234567');
      const [momo] = await suite.server.runtime.dataSource.query(
        `SELECT amount::text AS amount, currency, network_id FROM collections WHERE id = $1`,
        [momoId],
      );
      expect(momo).toEqual({ amount: '1250', currency: 'GHS', network_id: 'mtn-gh' });
      await expectAccessible(page, 'a mobile-money collection');

      await page.getByRole('link', { name: '← Collections' }).click();
      await page.locator(`tr[data-row-id="${momoId}"]`).waitFor();
      expect(await rowStatus(page, momoId)).toBe('PENDING');
      expect(await rowStatus(page, collectionId)).toBe('COMPLETED');
      await screenshotScreen(page, 'collections');
    },
    600_000,
  );

  browserTest(
    'a treasury business adds an end-user, sees KYC approved on the hosted page arrive live, opens a USD wallet with deposit instructions, funds it in the sandbox and sends a payout that completes live',
    async () => {
      const partner = await suite.server.signUp({ businessName: 'Nimbus Wallet' });
      await suite.server.setTreasury(partner.businessId, true);
      const { page, context, problems } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, partner.email, partner.password);

      await nav(page).getByRole('link', { name: 'Treasury end-users' }).click();
      await page.getByText('No end-users yet').waitFor();
      await expectAccessible(page, 'the empty end-users list');
      await page.getByLabel('Your id of the user').fill('user-42');
      await page.getByLabel('Email', { exact: true }).fill('Amara@Example.com');
      await page.getByLabel('Name', { exact: true }).fill('Amara Obi');
      await page.getByRole('button', { name: 'Add end-user' }).click();
      await page.waitForURL(/\/dashboard\/treasury\/end-users\/[0-9a-f-]{36}$/);
      const endUserId = page.url().split('/').pop()!;
      await page.getByRole('heading', { name: 'Amara Obi' }).waitFor();
      expect(await headlineStatus(page)).toBe('PENDING_KYC');

      await page.getByRole('button', { name: 'Start KYC' }).click();
      const link = page.getByTestId('kyc-link');
      await link.waitFor();
      const kyc = page.getByTestId('kyc');
      expect(await kyc.locator('[data-status]').getAttribute('data-status')).toBe('PENDING');
      const [check] = await suite.server.runtime.dataSource.query(
        `SELECT status, kyc_link_url FROM treasury_kyc_checks WHERE end_user_id = $1`,
        [endUserId],
      );
      expect(check.status).toBe('PENDING');
      expect(await link.getAttribute('href')).toBe(check.kyc_link_url);
      await expectAccessible(page, 'an end-user with KYC pending');

      // The end-user goes through the check in another tab; the dashboard tab hears of it.
      const loads: string[] = [];
      page.on('load', () => loads.push(page.url()));
      const endUserTab = await within(context.newPage(), PATIENCE_MS, 'the end-user tab');
      watch(endUserTab, problems);
      await endUserTab.goto(`${suite.server.baseUrl}${new URL(check.kyc_link_url).pathname}`);
      await endUserTab.click('#approve-button');
      await waitUntil(
        async () => (await kyc.locator('[data-status]').getAttribute('data-status')) === 'APPROVED',
        'the KYC check turns APPROVED on screen',
        LIVE_MS,
      );
      await waitUntil(async () => (await headlineStatus(page)) === 'ACTIVE', 'the end-user turns ACTIVE', LIVE_MS);
      expect(loads).toEqual([]);

      await choose(page, 'Currency', 'USD');
      await page.getByRole('button', { name: 'Open wallet' }).click();
      const wallet = page.getByRole('region', { name: 'USD wallet' });
      await wallet.waitFor();
      const [walletRow] = await suite.server.runtime.dataSource.query(
        `SELECT id, currency, deposit_account FROM treasury_wallets WHERE end_user_id = $1`,
        [endUserId],
      );
      expect(walletRow.currency.toUpperCase()).toBe('USD');
      const deposit = wallet.getByTestId('deposit-instructions');
      expect(await deposit.textContent()).toContain('Routing number');
      expect(await deposit.textContent()).toContain('110000000');
      await wallet.getByLabel('Sandbox deposit (USD)').fill('100.00');
      await wallet.getByRole('button', { name: 'Deposit (sandbox)' }).click();
      await waitUntil(
        async () => (await wallet.getByTestId('wallet-balance').textContent())?.includes('100.00') ?? false,
        'the balance shows the deposit',
      );
      await expectAccessible(page, 'an active end-user with a funded wallet');
      await screenshotScreen(page, 'treasury-end-user');

      await nav(page).getByRole('link', { name: 'Treasury payouts' }).click();
      await page.getByText('No treasury payouts yet').waitFor();
      await choose(page, 'End-user', 'Amara Obi (user-42)');
      await choose(page, 'Wallet', 'USD ($100.00)');
      await page.getByLabel('Amount (USD)').fill('25.00');
      await page.getByLabel('Account number').fill('000123456789');
      await page.getByLabel('Routing number or bank code').fill('021000021');
      await page.getByLabel('Account holder').fill('Amara Obi');
      await page.getByLabel('Country (two letters)').fill('US');
      await expectAccessible(page, 'the payout form');
      await page.getByRole('button', { name: 'Send payout' }).click();

      const payoutRow = page.locator('tr[data-row-id]');
      await payoutRow.first().waitFor({ timeout: LIVE_MS });
      const payoutId = (await payoutRow.first().getAttribute('data-row-id'))!;
      await waitUntil(
        async () => (await rowStatus(page, payoutId)) === 'COMPLETED',
        'the payout turns COMPLETED',
        LIVE_MS,
      );
      expect(loads).toEqual([]);
      const [payout] = await suite.server.runtime.dataSource.query(
        `SELECT amount::text AS amount, status, destination_type, end_user_id, wallet_id FROM treasury_payouts WHERE id = $1`,
        [payoutId],
      );
      expect(payout).toEqual({
        amount: '2500',
        status: 'COMPLETED',
        destination_type: 'bank_account',
        end_user_id: endUserId,
        wallet_id: walletRow.id,
      });
      await expectAccessible(page, 'the payouts list');
      await screenshotScreen(page, 'treasury-payouts');

      await nav(page).getByRole('link', { name: 'Treasury end-users' }).click();
      await page.locator(`tr[data-row-id="${endUserId}"]`).waitFor();
      expect(await rowStatus(page, endUserId)).toBe('ACTIVE');
      await screenshotScreen(page, 'treasury-end-users');
    },
    600_000,
  );

  browserTest(
    "a treasury payout's page, opened from the list, follows the payout live (cancelled elsewhere: the page changes without a reload) and cancels a pending one on screen, the debit reversed; a VIEWER sees it without the cancel",
    async () => {
      const partner = await suite.server.signUp({ businessName: 'Payout Watchers' });
      await suite.server.setTreasury(partner.businessId, true);
      const user = await activeEndUser(suite.server, partner);
      const wallet = await createWallet(suite.server, partner, user.id);
      await deposit(suite.server, partner, user.id, wallet.id, '100.00');
      const pending = async (amount: string) => {
        const response = await suite.server.request('POST', TREASURY_PAYOUTS, {
          headers: apiKey(partner),
          body: payoutBody(user.id, wallet.id, { amount, metadata: { test_outcome: 'pending' } }),
        });
        expect(response.status).toBe(201);
        return response.body.data.id as string;
      };
      const elsewhere = await pending('10.00');
      const onScreen = await pending('30.00');

      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, partner.email, partner.password);
      await nav(page).getByRole('link', { name: 'Treasury payouts' }).click();
      await page.locator(`tr[data-row-id="${elsewhere}"] a`).click();
      await page.waitForURL(`**/dashboard/treasury/payouts/${elsewhere}`);
      await page.getByRole('heading', { name: 'Treasury payout of $10.00' }).waitFor();
      expect(await headlineStatus(page)).toBe('PENDING');
      expect(await page.getByRole('region', { name: /To: Bank account/ }).textContent()).toContain('6789');
      await expectAccessible(page, 'a pending treasury payout');
      await screenshotScreen(page, 'treasury-payout');

      const loads: string[] = [];
      page.on('load', () => loads.push(page.url()));
      const cancelled = await suite.server.request('POST', `${TREASURY_PAYOUTS}/${elsewhere}/cancel`, {
        headers: apiKey(partner),
      });
      expect(cancelled.status).toBe(200);
      await waitUntil(
        async () => (await headlineStatus(page)) === 'CANCELLED',
        'the page hears of the cancel',
        LIVE_MS,
      );
      expect(loads).toEqual([]);
      expect(await page.getByRole('button', { name: 'Cancel payout' }).count()).toBe(0);

      await page.goto(`${suite.server.baseUrl}/dashboard/treasury/payouts/${onScreen}`);
      await page.getByRole('heading', { name: 'Treasury payout of $30.00' }).waitFor();
      await page.getByRole('button', { name: 'Cancel payout' }).click();
      await waitUntil(async () => (await headlineStatus(page)) === 'CANCELLED', 'the payout is cancelled on screen');
      const [row] = await suite.server.runtime.dataSource.query(`SELECT status FROM treasury_payouts WHERE id = $1`, [
        onScreen,
      ]);
      expect(row.status).toBe('CANCELLED');
      // Both debits reversed: the wallet has its 100.00 again.
      await waitUntil(
        async () =>
          (await page.getByText('Wallet balance now').locator('..').textContent())?.includes('$100.00') ?? false,
        'the wallet balance shows the debit reversed',
      );
      await expectAccessible(page, 'a cancelled treasury payout');

      const viewer = await suite.server.signUp({ businessName: 'Treasury Viewer Own' });
      await suite.server.addTeamMember(partner, viewer, 'VIEWER');
      const third = await pending('5.00');
      const second = await suite.open();
      await signInThroughScreen(second.page, suite.server.baseUrl, viewer.email, viewer.password);
      await choose(second.page, 'Business', 'Payout Watchers');
      await nav(second.page).getByRole('link', { name: 'Treasury payouts' }).waitFor();
      await second.page.goto(`${suite.server.baseUrl}/dashboard/treasury/payouts/${third}`);
      await second.page.getByRole('heading', { name: 'Treasury payout of $5.00' }).waitFor();
      expect(await headlineStatus(second.page)).toBe('PENDING');
      expect(await second.page.getByRole('button', { name: 'Cancel payout' }).count()).toBe(0);
      await expectAccessible(second.page, 'a treasury payout, as a VIEWER');
    },
    600_000,
  );

  browserTest(
    "a cancel the API refuses shows its refusal on the payout's page and changes nothing: the rail took the payout after the page was drawn",
    async () => {
      const partner = await suite.server.signUp({ businessName: 'Late Cancel Co' });
      await suite.server.setTreasury(partner.businessId, true);
      const user = await activeEndUser(suite.server, partner);
      const wallet = await createWallet(suite.server, partner, user.id);
      await deposit(suite.server, partner, user.id, wallet.id, '50.00');
      const created = await suite.server.request('POST', TREASURY_PAYOUTS, {
        headers: apiKey(partner),
        body: payoutBody(user.id, wallet.id, { amount: '20.00', metadata: { test_outcome: 'pending' } }),
      });
      expect(created.status).toBe(201);
      const payoutId = created.body.data.id as string;

      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, partner.email, partner.password);
      await page.goto(`${suite.server.baseUrl}/dashboard/treasury/payouts/${payoutId}`);
      await page.getByRole('heading', { name: 'Treasury payout of $20.00' }).waitFor();
      expect(await headlineStatus(page)).toBe('PENDING');
      // The rail takes it now, and the page has not heard yet (the row moved without an event): the
      // Cancel button is still there, and the API is the one to say no.
      await suite.server.runtime.dataSource.query(`UPDATE treasury_payouts SET status = 'PROCESSING' WHERE id = $1`, [
        payoutId,
      ]);
      const balanceBefore = await page.getByText('Wallet balance now').locator('..').textContent();
      await page.getByRole('button', { name: 'Cancel payout' }).click();
      const refusal = page.getByRole('alert').filter({ hasText: 'The request was refused' });
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain(
        'Only a PENDING treasury payout can be cancelled; this one is PROCESSING',
      );
      const [row] = await suite.server.runtime.dataSource.query(`SELECT status FROM treasury_payouts WHERE id = $1`, [
        payoutId,
      ]);
      expect(row.status).toBe('PROCESSING');
      expect(await page.getByText('Wallet balance now').locator('..').textContent()).toBe(balanceBefore);
      await expectAccessible(page, 'a refused treasury payout cancel');
    },
    300_000,
  );

  browserTest(
    'a VIEWER of a treasury business sees collections, end-users, wallets and payouts but no action that writes',
    async () => {
      const owner = await suite.server.signUp({ businessName: 'Viewed Treasury' });
      await suite.server.setTreasury(owner.businessId, true);
      const created = await suite.server.graphql(
        'mutation($input: CreateTreasuryEndUserInput!) { createTreasuryEndUser(input: $input) { treasuryEndUser { id } userErrors { message } } }',
        { input: { externalId: 'viewed-1', email: 'viewed@example.com', name: 'Viewed One' } },
        asOwner(owner),
      );
      const endUserId = created.body.data.createTreasuryEndUser.treasuryEndUser.id;
      const viewer = await suite.server.signUp({ businessName: 'Viewer Own' });
      await suite.server.addTeamMember(owner, viewer, 'VIEWER');

      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, viewer.email, viewer.password);
      await choose(page, 'Business', 'Viewed Treasury');
      await nav(page).getByRole('link', { name: 'Treasury end-users' }).waitFor();

      await nav(page).getByRole('link', { name: 'Collections' }).click();
      await page.getByText('No collections yet').waitFor();
      expect(await page.getByRole('button', { name: 'Create collection' }).count()).toBe(0);

      await nav(page).getByRole('link', { name: 'Treasury end-users' }).click();
      await page.locator(`tr[data-row-id="${endUserId}"]`).waitFor();
      expect(await page.getByRole('button', { name: 'Add end-user' }).count()).toBe(0);
      await page.locator(`tr[data-row-id="${endUserId}"] a`).click();
      await page.getByRole('heading', { name: 'Viewed One' }).waitFor();
      await page.getByText('No KYC check yet').waitFor();
      expect(
        await page
          .getByRole('button')
          .filter({ hasText: /KYC|wallet|Deposit/ })
          .count(),
      ).toBe(0);
      await expectAccessible(page, 'an end-user, as a VIEWER');

      await nav(page).getByRole('link', { name: 'Treasury payouts' }).click();
      await page.getByText('No treasury payouts yet').waitFor();
      expect(await page.getByRole('button', { name: 'Send payout' }).count()).toBe(0);
      await expectAccessible(page, 'the payouts list, as a VIEWER');
    },
    300_000,
  );
});
