import crypto from 'node:crypto';
import { Page } from 'playwright-core';
import { expectAccessible } from './support/axe';
import { browserTestFor } from './support/browser';
import { dashboardSuite, screenshotScreen, signInThroughScreen } from './support/dashboard';
import { TestMerchant, startDeliveringServer, waitFor, waitUntil } from './support/harness';
import { Receiver } from './support/receiver';

const browserTest = browserTestFor('dashboard-developers.browser');

/** The status of each delivery row on screen, by the row's delivery id. */
const rowStatuses = (page: Page, caption: string) =>
  page
    .locator('table', { has: page.locator('caption', { hasText: caption }) })
    .locator('tr[data-row-id]')
    .evaluateAll((rows) =>
      // Runs in the page: the test's TypeScript has no DOM types.

      rows.map((row: any) => ({
        id: row.getAttribute('data-row-id') as string,
        status: (row.querySelector('[data-status]')?.getAttribute('data-status') ?? null) as string | null,
        text: (row.textContent ?? '') as string,
      })),
    );

/**
 * The developers screens of the dashboard (API keys, webhooks, event log, /v1 keys) in headless
 * Chromium against a server that delivers webhooks: what each screen does is checked through the
 * API and the database, live updates arrive without a reload, and the roles that may not act see
 * no write action.
 */
describe('the dashboard developers screens in headless Chromium', () => {
  const receiver = new Receiver();
  const suite = dashboardSuite({
    startServer: async () => {
      await receiver.start();
      return startDeliveringServer();
    },
  });
  afterAll(() => receiver.close());

  const asKey = (apiKey: string) => ({ 'x-api-key': apiKey });
  const businessWith = (apiKey: string) => suite.server.graphql('{ business { id } }', {}, asKey(apiKey));
  const asMember = (merchant: TestMerchant) => ({
    authorization: `Bearer ${merchant.token}`,
    'x-service-business-id': merchant.businessId,
  });
  const fund = async (apiKey: string, amount: string) =>
    expect(
      (
        await suite.server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
          headers: asKey(apiKey),
          body: { currency: 'USD', amount },
        })
      ).status,
    ).toBe(201);

  browserTest(
    'API keys: the test key regenerated from the screen (after a confirmation) is shown once; the old key is refused at once and the new one works; an OWNER creates live credentials once',
    async () => {
      const merchant = await suite.server.signUp({ businessName: 'Keys Goods' });
      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, merchant.email, merchant.password);
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByTestId('key-hint-TEST').waitFor();
      expect(await page.getByTestId('key-hint-TEST').textContent()).toBe(`${merchant.apiKey.slice(0, 12)}…`);
      expect(await page.getByText('No live credentials yet.').count()).toBe(1);
      await expectAccessible(page, 'the API keys screen');
      await screenshotScreen(page, 'developers-api-keys');

      await page.getByRole('button', { name: 'Regenerate the test key' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('stop working at once').waitFor();
      await expectAccessible(page, 'the regeneration confirmation');
      await dialog.getByRole('button', { name: 'Regenerate key' }).click();
      const newKey = (await page.getByTestId('new-api-key').textContent())!.trim();
      expect(newKey).toMatch(/^bk_test_/);
      expect(newKey).not.toBe(merchant.apiKey);
      await expectAccessible(page, 'the new key, shown once');

      // Through the API: the old key is refused, the new one acts for the business.
      const old = await businessWith(merchant.apiKey);
      expect(old.body.data).toBeNull();
      expect(old.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
      expect((await businessWith(newKey)).body.data.business.id).toBe(merchant.businessId);

      await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
      await waitUntil(
        async () => (await page.getByTestId('key-hint-TEST').textContent()) === `${newKey.slice(0, 12)}…`,
        'the hint of the new key',
      );
      expect(await page.getByTestId('new-api-key').count()).toBe(0);

      await page.getByRole('button', { name: 'Create live credentials' }).click();
      const liveKey = (await page.getByTestId('live-api-key').textContent())!.trim();
      expect(liveKey).toMatch(/^bk_live_/);
      expect((await page.getByTestId('live-api-secret').textContent())!.trim()).toMatch(/^bs_live_/);
      await expectAccessible(page, 'the live credentials, shown once');
      expect((await businessWith(liveKey)).body.data.business.id).toBe(merchant.businessId);
      await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
      await page.getByTestId('key-hint-LIVE').waitFor();
      expect(await page.getByRole('button', { name: 'Create live credentials' }).count()).toBe(0);
      const rows = await suite.server.runtime.dataSource.query(
        `SELECT livemode FROM api_credentials WHERE business_id = $1 ORDER BY livemode`,
        [merchant.businessId],
      );
      expect(rows).toEqual([{ livemode: false }, { livemode: true }]);
    },
    600_000,
  );

  browserTest(
    'webhooks: a failed delivery to the webhook URL appears live with its attempt; Redeliver sends it again and the new delivery turns succeeded without a reload; endpoints are added, changed and deleted; an event is replayed from the event log',
    async () => {
      const merchant = await suite.server.signUp({ businessName: 'Hooks Goods' });
      const path = `/hooks-${crypto.randomBytes(3).toString('hex')}`;
      // The receiver answers the first delivery 500, and 200 from then on.
      receiver.program(path, [{ status: 500, body: 'down for maintenance' }]);
      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, merchant.email, merchant.password);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByText('No deliveries yet').waitFor();
      await page.getByText('No endpoints').waitFor();
      await expectAccessible(page, 'the webhooks screen, empty');

      // A URL the form refuses: said on the field, nothing saved.
      await page.getByRole('textbox', { name: 'Webhook URL', exact: true }).fill('not a url');
      await page.getByRole('button', { name: 'Save webhook URL' }).click();
      await page.getByText('Enter an absolute http(s) URL').waitFor();
      await page.getByRole('textbox', { name: 'Webhook URL', exact: true }).fill(receiver.url(path));
      await page.getByRole('button', { name: 'Save webhook URL' }).click();
      await page.getByText('Webhook URL saved').waitFor();
      const settings = await suite.server.graphql('{ businessSettings { webhookUrl } }', {}, asMember(merchant));
      expect(settings.body.data.businessSettings.webhookUrl).toBe(receiver.url(path));

      const loads: string[] = [];
      page.on('load', () => loads.push(page.url()));
      await fund(merchant.apiKey, '7.00');
      // The delivery arrives on screen through the subscription, and fails with its one attempt.
      const failed = await waitFor(
        () => rowStatuses(page, 'Deliveries to the webhook URL'),
        (rows) => rows.length === 1 && rows[0].status === 'permanently_failed',
        60_000,
      );
      expect(failed).toHaveLength(1);
      expect(failed[0].status).toBe('permanently_failed');
      expect(failed[0].text).toContain('wallet.funded');
      expect(failed[0].text).toContain('HTTP 500');
      expect(await page.locator(`tr[data-row-id="${failed[0].id}"] td`).nth(2).textContent()).toBe('1');
      await expectAccessible(page, 'a failed delivery');

      await page.locator(`tr[data-row-id="${failed[0].id}"]`).getByRole('button', { name: 'Redeliver' }).click();
      const after = await waitFor(
        () => rowStatuses(page, 'Deliveries to the webhook URL'),
        (rows) => rows.some((row) => row.id !== failed[0].id && row.status === 'succeeded'),
        60_000,
      );
      const redelivered = after.find((row) => row.id !== failed[0].id)!;
      expect(redelivered.status).toBe('succeeded');
      expect(redelivered.text).toContain('HTTP 200');
      expect(loads).toEqual([]);
      expect(receiver.at(path).map((request) => JSON.parse(request.body).data.amount)).toEqual(['7.00', '7.00']);
      const deliveries = await suite.server.runtime.dataSource.query(
        `SELECT id, status FROM webhook_deliveries WHERE business_id = $1 ORDER BY created_at`,
        [merchant.businessId],
      );
      expect(deliveries).toEqual([
        { id: failed[0].id, status: 'permanently_failed' },
        { id: redelivered.id, status: 'succeeded' },
      ]);
      await expectAccessible(page, 'a redelivered delivery');
      await screenshotScreen(page, 'developers-webhooks');

      // An endpoint: added, changed, then deleted, each checked through the API.
      const endpointUrl = receiver.url(`${path}-endpoint`);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByRole('dialog').getByLabel('Endpoint URL').fill(endpointUrl);
      await page.getByRole('dialog').getByLabel('Event types').fill('wallet.funded');
      await page.getByRole('dialog').getByLabel('Description').fill('ledger sync');
      await expectAccessible(page, 'the new endpoint form');
      await page.getByRole('dialog').getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByRole('cell', { name: endpointUrl }).waitFor();
      const endpoints = async () =>
        (
          await suite.server.graphql(
            '{ webhookEndpoints { edges { node { id url events status description } } } }',
            {},
            asMember(merchant),
          )
        ).body.data.webhookEndpoints.edges.map((edge: { node: unknown }) => edge.node);
      const [created] = await endpoints();
      expect(created).toMatchObject({
        url: endpointUrl,
        events: ['wallet.funded'],
        status: 'enabled',
        description: 'ledger sync',
      });

      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('dialog').getByLabel('Description').fill('ledger sync, paused');
      const enabled = page.getByRole('dialog').getByRole('switch', { name: 'Enabled' });
      expect(await enabled.isChecked()).toBe(true);
      await enabled.click();
      await page.getByRole('dialog').getByRole('button', { name: 'Save endpoint' }).click();
      await page.getByRole('cell', { name: 'ledger sync, paused' }).waitFor();
      expect(await endpoints()).toEqual([{ ...created, description: 'ledger sync, paused', status: 'disabled' }]);

      // Its page lists its deliveries (none: it is disabled).
      await page.getByRole('link', { name: endpointUrl }).click();
      await page.getByText('No deliveries yet').waitFor();
      await expectAccessible(page, 'an endpoint without deliveries');
      await page.getByRole('link', { name: '← Webhooks' }).click();

      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('dialog').getByText('Its past deliveries are kept').waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete endpoint' }).click();
      await page.getByText('No endpoints').waitFor();
      expect(await endpoints()).toEqual([]);

      // The event log: the funding event, its data and deliveries; Replay sends it to the webhook URL again.
      await page.getByRole('link', { name: 'Event log' }).click();
      await page.getByRole('button', { name: 'wallet.funded' }).first().waitFor();
      await page.getByLabel('Event type').fill('payment.completed');
      await page.getByText('No event matches these filters').waitFor();
      await expectAccessible(page, 'the event log, filtered to nothing');
      await page.getByLabel('Event type').fill('wallet.funded');
      const eventRow = page.locator('tr[data-row-id]');
      await waitUntil(async () => (await eventRow.count()) === 1, 'one wallet.funded event');
      const eventId = (await eventRow.getAttribute('data-row-id'))!;
      await expectAccessible(page, 'the event log');
      await screenshotScreen(page, 'developers-events');
      await eventRow.getByRole('button', { name: 'wallet.funded' }).click();
      const data = JSON.parse((await page.getByTestId('event-data').textContent())!);
      expect(data).toMatchObject({ amount: '7.00' });
      await page.locator('tr[data-delivery-id]').nth(1).waitFor();
      await expectAccessible(page, 'an event with its data and deliveries');
      await page.getByRole('dialog').getByRole('button', { name: 'Replay' }).click();
      await page.getByText(`Replayed to ${receiver.url(path)}`).waitFor();
      await page.locator('tr[data-delivery-id]').nth(2).waitFor();
      await waitUntil(() => receiver.at(path).length === 3, 'the replayed event is received');
      expect(JSON.parse(receiver.at(path)[2].body)).toMatchObject({
        event: 'wallet.funded',
        data: { amount: '7.00' },
      });
      const replayed = await suite.server.runtime.dataSource.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = $1`,
        [eventId],
      );
      expect(replayed).toEqual([{ n: 3 }]);
    },
    600_000,
  );

  browserTest(
    '/v1 keys: an OWNER of a verified business issues a key, shown once; an unverified business is told why not',
    async () => {
      const merchant = await suite.server.signUp({ businessName: 'V1 Goods' });
      const { page } = await suite.open();
      await signInThroughScreen(page, suite.server.baseUrl, merchant.email, merchant.password);
      await page.getByRole('link', { name: '/v1 keys' }).click();
      await page.getByText('No active test key.').waitFor();
      const verified = (await suite.server.graphql('{ business { verified } }', {}, asMember(merchant))).body.data
        .business.verified as boolean;
      if (!verified) {
        // A new business is not verified: the screen says why no key can be issued, and offers none.
        expect(await page.getByTestId('v1-why-not').textContent()).toContain('verified businesses only');
        expect(await page.getByRole('button', { name: /Issue a/ }).count()).toBe(0);
        await expectAccessible(page, 'the /v1 keys of an unverified business');
        await suite.server.runtime.dataSource.query(`UPDATE businesses SET verified = true WHERE id = $1`, [
          merchant.businessId,
        ]);
        await page.reload();
      }
      await page.getByRole('button', { name: 'Issue a test key' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Issue key' }).click();
      const key = (await page.getByTestId('new-v1-key').textContent())!.trim();
      expect(key).toMatch(/^tessera_test_sk_/);
      await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
      await page.getByTestId('v1-key-hint-TEST').waitFor();
      const keys = await suite.server.graphql('{ v1ApiKeys { mode keyHint } }', {}, asMember(merchant));
      expect(keys.body.data.v1ApiKeys).toEqual([
        { mode: 'TEST', keyHint: (await page.getByTestId('v1-key-hint-TEST').textContent())!.trim() },
      ]);
      const v1 = await suite.server.request('GET', '/v1/payments', { headers: { authorization: `Bearer ${key}` } });
      expect(v1.status).toBe(200);

      await page.getByRole('textbox', { name: '/v1 webhook URL' }).fill(receiver.url('/v1-events'));
      await page.getByRole('button', { name: 'Save /v1 webhook URL' }).click();
      await page.getByText('/v1 webhook URL saved').waitFor();
      const saved = await suite.server.graphql('{ v1WebhookUrl { webhookUrl } }', {}, asMember(merchant));
      expect(saved.body.data.v1WebhookUrl.webhookUrl).toBe(receiver.url('/v1-events'));
      await expectAccessible(page, 'the /v1 keys screen');
      await screenshotScreen(page, 'developers-v1-keys');
    },
    600_000,
  );

  browserTest(
    'roles: a VIEWER sees no write action on any developers screen; a DEVELOPER regenerates keys but cannot create live credentials',
    async () => {
      const owner = await suite.server.signUp({ businessName: 'Roles Goods' });
      const viewer = await suite.server.signUp({ businessName: 'Viewer Own' });
      const developer = await suite.server.signUp({ businessName: 'Developer Own' });
      await suite.server.addTeamMember(owner, viewer, 'VIEWER');
      await suite.server.addTeamMember(owner, developer, 'DEVELOPER');
      await fund(owner.apiKey, '3.00');

      const enterOwnersBusiness = async (page: Page, member: TestMerchant) => {
        await signInThroughScreen(page, suite.server.baseUrl, member.email, member.password);
        await page.getByRole('combobox', { name: 'Business' }).click();
        await page.getByRole('option', { name: 'Roles Goods' }).click();
        await page.getByRole('heading', { name: 'Roles Goods' }).waitFor();
      };

      const { page } = await suite.open();
      await enterOwnersBusiness(page, viewer);
      await page.getByRole('link', { name: 'API keys' }).click();
      await page.getByTestId('key-hint-TEST').waitFor();
      expect(await page.getByRole('button', { name: /Regenerate|Create live/ }).count()).toBe(0);
      expect(await page.getByText('An OWNER of the business creates them').count()).toBe(1);
      await expectAccessible(page, 'the API keys of a VIEWER');

      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByText('No webhook URL.').waitFor();
      expect(await page.getByRole('textbox', { name: 'Webhook URL', exact: true }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /Save|Add endpoint|Redeliver/ }).count()).toBe(0);
      await expectAccessible(page, 'the webhooks of a VIEWER');

      await page.getByRole('link', { name: 'Event log' }).click();
      await page.getByRole('button', { name: 'wallet.funded' }).click();
      await page.getByTestId('event-data').waitFor();
      expect(await page.getByRole('button', { name: 'Replay' }).count()).toBe(0);
      await page.keyboard.press('Escape');

      await page.getByRole('link', { name: '/v1 keys' }).click();
      await page.getByTestId('v1-why-not').waitFor();
      expect(await page.getByRole('button', { name: /Issue|Replace|Save/ }).count()).toBe(0);
      await expectAccessible(page, 'the /v1 keys of a VIEWER');

      const second = await suite.open();
      await enterOwnersBusiness(second.page, developer);
      await second.page.getByRole('link', { name: 'API keys' }).click();
      await second.page.getByRole('button', { name: 'Regenerate the test key' }).waitFor();
      expect(await second.page.getByRole('button', { name: 'Create live credentials' }).count()).toBe(0);
      expect(await second.page.getByText('An OWNER of the business creates them').count()).toBe(1);
      await expectAccessible(second.page, 'the API keys of a DEVELOPER');
    },
    600_000,
  );
});
