import { execFile } from 'node:child_process';
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { promisify } from 'node:util';
import { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium } from './browser';
import { TestServer, startTestServer } from './harness';
import { PATIENCE_MS, within } from './wait';

/**
 * Builds the dashboard (dist/dashboard/) as `npm start` does: the server serves it from there.
 * Returns at once when it is current; a first build (types, type check, bundle) takes a minute or
 * two on a busy machine.
 */
export async function buildDashboard(): Promise<void> {
  await promisify(execFile)(process.execPath, [path.join(__dirname, '..', '..', 'scripts', 'build-dashboard.js')], {
    timeout: 600_000,
  });
}

/** A browser context for one dashboard user: only this server is reachable, and what goes wrong on the page is kept. */
export interface DashboardTab {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors, console errors (CSP violations among them) and requests to other hosts. */
  problems: string[];
}

/**
 * Run in every page before its own scripts: a value thrown or rejected that is not an Error reaches the
 * test as a page error with only its class for a message ("page error: Object" in CI, 2026-11-28: graphql-ws's
 * refusal of a reconnect, api/client.ts), so the page also writes the value out, as a console error the test
 * reports with it.
 */
const DESCRIBE_NON_ERRORS = `(() => {
  const describe = (value) => { try { return JSON.stringify(value); } catch { return String(value); } };
  const report = (what, value) => {
    if (!(value instanceof Error)) console.error(what + ' (not an Error): ' + String(describe(value)).slice(0, 800));
  };
  addEventListener('unhandledrejection', (event) => report('unhandled rejection', event.reason));
  addEventListener('error', (event) => report('uncaught throw', event.error));
})();`;

export async function openDashboard(browser: Browser, baseUrl: string): Promise<DashboardTab> {
  const context = await within(
    browser.newContext({ viewport: { width: 1280, height: 860 } }),
    PATIENCE_MS,
    'a context',
  );
  await context.addInitScript(DESCRIBE_NON_ERRORS);
  const origin = new URL(baseUrl).origin;
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith(origin.replace('http', 'ws')) || url.startsWith('data:')) {
      return route.continue();
    }
    problems.push(`request to another host: ${url}`);
    return route.abort();
  });
  const page = await within(context.newPage(), PATIENCE_MS, 'a new page in Chromium');
  watch(page, problems);
  return { context, page, problems };
}

/** Records a page's uncaught errors and console errors (a refused request the app handles shows none). */
export function watch(page: Page, problems: string[]): void {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
}

/** Signs `email` in through the sign-in screen and waits for the signed-in frame (the navigation). */
export async function signInThroughScreen(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Sections' }).waitFor();
}

/**
 * Saves a screenshot of the screen as the test left it: always under dist/screenshots/dashboard/
 * (what CI keeps of a run), and with TESSERA_DOC_SCREENSHOTS=1 also as docs/images/dashboard-<name>.png,
 * the pictures docs/dashboard.md and the README show.
 */
export async function screenshotScreen(page: Page, name: string): Promise<void> {
  const root = path.join(__dirname, '..', '..');
  const folder = path.join(root, 'dist', 'screenshots', 'dashboard');
  await mkdir(folder, { recursive: true });
  // From the top: a full-page capture of a scrolled page draws the fixed header and navigation
  // where the viewport stood, in the middle of the picture.
  await page.evaluate(() => (globalThis as unknown as InPage).scrollTo(0, 0));
  await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
  if (process.env.TESSERA_DOC_SCREENSHOTS) {
    await page.screenshot({ path: path.join(root, 'docs', 'images', `dashboard-${name}.png`), fullPage: true });
  }
}

/**
 * The little of the DOM the functions run in the page use (page.evaluate): the project compiles
 * without the DOM's types, and a cast is all these need, since it is gone from the code sent.
 */
interface InPageElement {
  id: string;
  tagName: string;
  textContent: string | null;
  parentElement: InPageElement | null;
  labels?: ArrayLike<InPageElement> | null;
  getAttribute(name: string): string | null;
  matches(selector: string): boolean;
  contains(other: InPageElement | null): boolean;
}
interface InPage {
  document: { activeElement: InPageElement | null; body: InPageElement };
  scrollTo(x: number, y: number): void;
  getComputedStyle(element: InPageElement): { outlineStyle: string; outlineWidth: string; boxShadow: string };
}

/** Whether `target` (or an element inside it) has the focus. */
export const hasFocus = (target: Locator) =>
  target.evaluate((element) => {
    const focused = (globalThis as unknown as InPage).document.activeElement;
    return (element as unknown as InPageElement).contains(focused);
  });

/**
 * Presses Tab (Shift+Tab with `backwards`) until `target` has the focus, as a keyboard user moves,
 * and checks that the focus shows there; fails when `limit` presses never reach it.
 */
export async function tabTo(page: Page, target: Locator, { backwards = false, limit = 60 } = {}): Promise<void> {
  await target.waitFor({ state: 'attached' });
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    if (await hasFocus(target)) {
      await expectFocusVisible(page);
      return;
    }
  }
  throw new Error(`${String(target)} was not reached by ${limit} presses of ${backwards ? 'Shift+Tab' : 'Tab'}`);
}

/** What the focused element is (its id, its name) and whether an outline or a shadow marks it (on it or its label). */
export function focusedElement(page: Page): Promise<{ id: string; name: string; ring: boolean }> {
  return page.evaluate(() => {
    const inPage = globalThis as unknown as InPage;
    const { document } = inPage;
    const element = document.activeElement;
    if (!element || element === document.body) return { id: '', name: 'nothing', ring: false };
    // A ring on the element, on its label (a hidden radio's), or on the field around it (a password's).
    const around = element.parentElement?.matches(':focus-within') ? [element.parentElement] : [];
    const marked = [element, ...Array.from(element.labels ?? []), ...around].some((candidate) => {
      const style = inPage.getComputedStyle(candidate);
      return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    });
    const name = element.getAttribute('aria-label') ?? element.textContent?.trim() ?? '';
    return { id: element.id, name: `${element.tagName.toLowerCase()} "${name.slice(0, 40)}"`, ring: marked };
  });
}

/** The focused element shows a focus indicator (an outline or a box shadow, not `none`). */
export async function expectFocusVisible(page: Page): Promise<void> {
  const focused = await focusedElement(page);
  if (!focused.ring) throw new Error(`the focus on ${focused.name} does not show: no outline or box shadow`);
}

/** Picks `option` of the focused Select (a combobox) with the arrow keys and Enter. */
export async function chooseByKeyboard(page: Page, option: string): Promise<void> {
  await page.keyboard.press('ArrowDown');
  const listbox = page.getByRole('listbox');
  await listbox.waitFor();
  const count = await listbox.getByRole('option').count();
  for (let step = 0; step <= count; step++) {
    const hovered = await listbox
      .locator('[data-combobox-selected]')
      .textContent()
      .catch(() => null);
    if (hovered?.trim() === option) {
      await page.keyboard.press('Enter');
      await listbox.waitFor({ state: 'hidden' });
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`the option ${option} was not reached with the arrow keys`);
}

/** Picks `option` of the focused native `<select>` with the arrow keys (each press selects the next option). */
export async function chooseNativeByKeyboard(page: Page, option: string): Promise<void> {
  const selected = () =>
    page.evaluate(() => {
      const element = (globalThis as unknown as InPage).document.activeElement as unknown as {
        tagName: string;
        selectedOptions?: ArrayLike<{ text: string }>;
      } | null;
      if (element?.tagName !== 'SELECT') throw new Error('the focus is not on a <select>');
      return element.selectedOptions?.[0]?.text.trim() ?? '';
    });
  for (let step = 0; step < 50; step++) {
    if ((await selected()) === option) return;
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`the option ${option} was not reached with the arrow keys`);
}

/** A dashboard browser test file's server, and its tabs opened on demand in one Chromium. */
export interface DashboardSuite {
  readonly server: TestServer;
  open(): Promise<DashboardTab>;
}

/**
 * The frame of a dashboard browser test file: the dashboard built and a server started before its
 * tests, everything closed after them, and a test failed when one of its pages had a problem.
 * `startServer` starts a server other than the plain test server (one with the job worker, say).
 */
export function dashboardSuite({
  startServer = () => startTestServer(),
}: { startServer?: () => Promise<TestServer> } = {}): DashboardSuite {
  let server: TestServer | undefined;
  let browser: Browser | null = null;
  const tabs: DashboardTab[] = [];
  beforeAll(async () => {
    await buildDashboard();
    server = await startServer();
  }, 900_000);
  afterAll(async () => {
    for (const tab of tabs) await tab.context.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });
  afterEach(() => {
    // Every page of the test ran without an uncaught error, a console error or a request elsewhere.
    for (const tab of tabs.splice(0)) expect(tab.problems).toEqual([]);
  });
  const suite: DashboardSuite = {
    get server() {
      if (!server) throw new Error('the server starts in beforeAll');
      return server;
    },
    open: async () => {
      browser ??= await launchChromium();
      const tab = await openDashboard(browser, suite.server.baseUrl);
      tabs.push(tab);
      return tab;
    },
  };
  return suite;
}
