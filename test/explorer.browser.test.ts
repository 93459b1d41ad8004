import { Browser, Page } from 'playwright-core';
import { expectAccessible } from './support/axe';
import { browserTestFor, launchChromium } from './support/browser';
import { TestMerchant, TestServer, startTestServer, waitFor } from './support/harness';
import { buildExplorer } from './support/explorer';

const browserTest = browserTestFor('explorer.browser');

/** The CodeMirror editors of GraphiQL: the operation, the visible tool (headers), the response. */
const QUERY_EDITOR = '.graphiql-query-editor .CodeMirror';
const HEADERS_EDITOR = '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror';
const RESPONSE = '.result-window .CodeMirror';

type CodeMirrorElement = Element & { CodeMirror: { setValue(text: string): void; getValue(): string } };
/** The page's globals, in the functions Playwright runs in the browser (the test program has no DOM types). */
declare const document: { querySelector(selector: string): (Element & { textContent: string | null }) | null };

const setEditor = (page: Page, selector: string, text: string) =>
  page.$eval(selector, (element, value) => (element as CodeMirrorElement).CodeMirror.setValue(value), text);
const responseText = (page: Page) =>
  page.$eval(RESPONSE, (element) => (element as CodeMirrorElement).CodeMirror.getValue());

/**
 * Runs the one operation put in the editor, once GraphiQL has parsed it (its tab takes the
 * operation's name): before that, the button would run the previous document, or open a menu to
 * pick one of the several operations of the example.
 */
async function execute(page: Page, operationName: string) {
  await page.waitForFunction(
    (name) => document.querySelector('.graphiql-tab-active')?.textContent?.trim() === name,
    operationName,
  );
  await page.click('.graphiql-execute-button:not([aria-haspopup])');
}

/** The response pane's text once it matches `expected` (what it shows instead, if it never does). */
async function waitForResponse(page: Page, expected: RegExp): Promise<string> {
  try {
    await page.waitForFunction(
      ([selector, source]) => {
        const element = document.querySelector(selector) as CodeMirrorElement | null;
        return element !== null && new RegExp(source).test(element.CodeMirror.getValue());
      },
      [RESPONSE, expected.source] as const,
      { timeout: 30_000 },
    );
  } catch {
    throw new Error(
      `The response pane never matched ${expected}; it shows: ${await responseText(page).catch((error) => String(error))}`,
    );
  }
  return responseText(page);
}

/**
 * The GraphQL explorer at /graphql in a real browser with no way out to the internet: every
 * request to another host is aborted (and listed), so the page works only if this server serves
 * all of it. It runs a query with an API key, and a subscription over graphql-ws that receives an
 * event, and passes axe-core's accessibility check.
 */
describe('the GraphQL explorer in headless Chromium, offline', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  let browser: Browser | null = null;

  beforeAll(async () => {
    await buildExplorer();
    server = await startTestServer();
    merchant = await server.signUp();
  }, 360_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  browserTest(
    'loads with nothing from another host, runs a query with an API key and a subscription that receives an event',
    async () => {
      browser = await launchChromium();
      const context = await browser.newContext();
      const ownOrigin = new URL(server.baseUrl).origin;
      const elsewhere: string[] = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (new URL(url).origin === ownOrigin || url.startsWith('data:')) return route.continue();
        elsewhere.push(url);
        return route.abort('internetdisconnected');
      });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));

      await page.goto(`${server.baseUrl}/graphql`);
      await page.waitForSelector(QUERY_EDITOR);
      await page.waitForSelector(HEADERS_EDITOR);
      expect(await page.title()).toBe('Tessera GraphQL explorer');

      // A query with the merchant's API key, as a developer types it.
      await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
        body: { currency: 'USD', amount: '7.50' },
        headers: { 'x-api-key': merchant.apiKey },
      });
      await setEditor(page, HEADERS_EDITOR, JSON.stringify({ 'x-api-key': merchant.apiKey }));
      await setEditor(page, QUERY_EDITOR, 'query Wallets { wallets { currency balance { amount } } }');
      await execute(page, 'Wallets');
      const result = JSON.parse(await waitForResponse(page, /"wallets"/));
      expect(result).toEqual({ data: { wallets: [{ currency: 'USD', balance: { amount: '7.50' } }] } });

      // A subscription over graphql-ws, authenticated by the same headers; funding the wallet publishes an event.
      const listeners = server.runtime.core.pubSub.listeners;
      const before = listeners.readyCount();
      await setEditor(
        page,
        QUERY_EDITOR,
        'subscription Balances { walletBalanceUpdated { balance { amount } change { amount } } }',
      );
      await execute(page, 'Balances');
      expect(
        await waitFor(
          async () => listeners.readyCount(),
          (count) => count > before,
          30_000,
        ),
      ).toBeGreaterThan(before);
      const funded = await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
        body: { currency: 'USD', amount: '2.25' },
        headers: { 'x-api-key': merchant.apiKey },
      });
      expect(funded.status).toBe(201);
      const event = JSON.parse(await waitForResponse(page, /walletBalanceUpdated/));
      expect(event).toEqual({
        data: { walletBalanceUpdated: { balance: { amount: '9.75' }, change: { amount: '2.25' } } },
      });

      expect(elsewhere).toEqual([]);
      expect(problems).toEqual([]);
    },
    120_000,
  );

  browserTest(
    "the explorer and the landing page pass axe-core's accessibility check",
    async () => {
      browser ??= await launchChromium();
      const page = await browser.newPage();
      await page.goto(`${server.baseUrl}/graphql`);
      await page.waitForSelector(`${QUERY_EDITOR} textarea[aria-label]`);
      await expectAccessible(page, 'the GraphQL explorer', GRAPHIQL_WIDGET_RULES);
      await page.goto(`${server.baseUrl}/`);
      await expectAccessible(page, 'the landing page');
    },
    120_000,
  );
});

/**
 * Rules left to GraphiQL's own widgets, which the page cannot change without patching GraphiQL:
 * its operation tabs are `li role=tab` elements holding their close button (nested-interactive), and
 * CodeMirror scrolls its pane from a focusable input that sits beside the scrolled element, which
 * axe cannot see (scrollable-region-focusable). Everything else, the page's own and GraphiQL's, is checked.
 */
const GRAPHIQL_WIDGET_RULES = {
  'nested-interactive': { enabled: false },
  'scrollable-region-focusable': { enabled: false },
};
