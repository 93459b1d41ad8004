import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { TestServer, startTestServer } from './support/harness';
import { buildDashboard } from './support/dashboard';

/**
 * How the server serves the built dashboard (src/server/dashboard.ts): the app's page for every
 * path under /dashboard (the app's router draws the screen), never cached, with its CSP; hashed
 * assets cached for a year and sent precompressed when the client accepts it; an unknown asset is
 * the API's 404, not the app's page.
 */
describe('serving the dashboard', () => {
  let server: TestServer;
  beforeAll(async () => {
    await buildDashboard();
    server = await startTestServer();
  }, 900_000);
  afterAll(async () => server?.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}${path}`, { headers, redirect: 'manual' });

  test('every path under /dashboard answers the app page, not cached, scripts only from this origin', async () => {
    const pages = await Promise.all(
      ['/dashboard', '/dashboard/payments', '/dashboard/payouts/schedules/x', '/dashboard/no/such/page'].map((path) =>
        get(path),
      ),
    );
    const bodies = await Promise.all(pages.map((page) => page.text()));
    for (const [index, page] of pages.entries()) {
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(bodies[index]).toMatch(/<script type="module" crossorigin src="\/dashboard\/assets\/index-[\w-]+\.js">/);
    }
  });

  test("the page carries the signed-in frame, hidden and inert, before the app's root; its one inline script is allowed by its hash alone", async () => {
    const page = await get('/dashboard/payments');
    const html = await page.text();
    const frameAt = html.indexOf('<div id="boot-frame"');
    expect(frameAt).toBeGreaterThan(html.indexOf('<body>'));
    expect(html.indexOf('<div id="root"></div>')).toBeGreaterThan(frameAt);
    const frameTag = /<div id="boot-frame"[^>]*>/.exec(html)![0];
    for (const attribute of [
      'hidden=""',
      'inert=""',
      'aria-hidden="true"',
      'data-session-key="tessera.dashboard.session"',
    ])
      expect(frameTag).toContain(attribute);
    // The navigation as the Shell draws it for a business without the treasury product; the sandbox marked test-only.
    const frame = html.slice(frameAt, html.indexOf('<div id="root"></div>'));
    const entries = [...frame.matchAll(/<a [^>]*data-boot-path="([^"]*)"[^>]*>/g)].map(([tag, path]) => ({
      path,
      testOnly: tag.includes('data-boot-test'),
    }));
    expect(entries).toContainEqual({ path: 'payments', testOnly: false });
    expect(entries).toContainEqual({ path: 'sandbox', testOnly: true });
    expect(entries.some((entry) => entry.path.startsWith('treasury'))).toBe(false);
    expect(frame).toContain('data-testid="test-mode-banner"');

    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
    expect(inline).toHaveLength(1);
    expect(html.match(/<script\b/g)).toHaveLength(2); // the frame's, and the app's entry (type="module" src=…)
    const hash = crypto
      .createHash('sha256')
      .update(inline[0] ?? '', 'utf8')
      .digest('base64');
    const scriptSrc = page.headers
      .get('content-security-policy')!
      .split(';')
      .map((directive) => directive.trim())
      .find((directive) => directive.startsWith('script-src'));
    expect(scriptSrc).toBe(`script-src 'self' 'sha256-${hash}'`);
  });

  /**
   * The screen a page names for preloading: the first `<link rel="modulepreload">` after the first
   * load's, which is the route's own chunk (the chunks it imports follow), or null when there is none.
   */
  const preloadedScreen = async (path: string) => {
    const html = await (await get(path)).text();
    const head = html.slice(0, html.indexOf('</head>'));
    // The first load's files end with its style sheets; what follows is the route's.
    const after = head.slice(head.lastIndexOf('<link rel="stylesheet"'));
    return (
      /<link rel="modulepreload" crossorigin href="\/dashboard\/assets\/(\w+)-[\w-]+\.js">/.exec(after)?.[1] ?? null
    );
  };

  test("a route's page names its screen's code for preloading, as the app's router matches the path", async () => {
    expect(await preloadedScreen('/dashboard')).toBe('HomeScreen');
    expect(await preloadedScreen('/dashboard/payments')).toBe('PaymentsScreen');
    expect(await preloadedScreen('/dashboard/payments/')).toBe('PaymentsScreen');
    expect(await preloadedScreen('/dashboard/payments/0b4c8a39-7f1e-4a47-9d8c-2f0e4f6b1a11?tab=refunds')).toBe(
      'PaymentScreen',
    );
    // A literal segment wins over a parameter, as in the router: the recipients list, not a payout.
    expect(await preloadedScreen('/dashboard/payouts/recipients')).toBe('RecipientsScreen');
    expect(await preloadedScreen('/dashboard/payouts/po_123')).toBe('PayoutScreen');
    expect(await preloadedScreen('/dashboard/payouts/batches/new')).toBe('NewBatchScreen');
    expect(await preloadedScreen('/dashboard/sign-in')).toBe('SignInScreen');
    // No route, no preload: the page as built.
    expect(await preloadedScreen('/dashboard/no/such/page')).toBeNull();
    expect(await preloadedScreen('/dashboard/payments/a/b')).toBeNull();
  });

  test('every file a page names exists and is served, the preloaded screen code among them', async () => {
    const html = await (await get('/dashboard/payouts/schedules/x')).text();
    const files = [...html.matchAll(/(?:href|src)="(\/dashboard\/assets\/[^"]+)"/g)].map((match) => match[1]);
    expect(files.some((file) => /ScheduleScreen-/.test(file))).toBe(true);
    for (const file of files) expect([file, (await get(file)).status]).toEqual([file, 200]);
  });

  test("the first load's style sheet holds Mantine's rules for the components the app uses, not every component's", async () => {
    const html = await (await get('/dashboard/payments')).text();
    const sheets = [
      ...html.matchAll(/<link rel="stylesheet" crossorigin href="(\/dashboard\/assets\/[\w.-]+\.css)">/g),
    ];
    const css = (await Promise.all(sheets.map(async ([, href]) => (await get(href)).text()))).join('\n');
    const mantine = path.dirname(require.resolve('@mantine/core/styles.css'));
    // A component's sheet is there when its class names are (the build minifies the rules, not the names).
    const classes = (sheet: string) => [
      ...new Set(fs.readFileSync(path.join(mantine, 'styles', `${sheet}.css`), 'utf8').match(/\.m_[0-9a-f]{8}\b/g)),
    ];
    // A sheet without class names would pass both checks below by saying nothing: each one checked has some.
    const included = (sheet: string) => ({
      sheet,
      included: classes(sheet).length > 0 && classes(sheet).every((name) => css.includes(name)),
    });
    // The frame's components and those they are made of (Select: Combobox, Popover, Input).
    for (const sheet of [
      'AppShell',
      'NavLink',
      'SegmentedControl',
      'Table',
      'Combobox',
      'Popover',
      'Input',
      'Button',
    ]) {
      expect(included(sheet)).toEqual({ sheet, included: true });
    }
    // Components no screen uses: none of their class names.
    for (const sheet of ['Stepper', 'Timeline', 'Slider', 'Rating']) {
      expect(classes(sheet).length).toBeGreaterThan(0);
      expect(classes(sheet).filter((name) => css.includes(name))).toEqual([]);
    }
    expect(css).toContain('box-sizing:border-box'); // the reset
    expect(css.length).toBeLessThan(fs.statSync(path.join(mantine, 'styles.css')).size / 2);
    // The date pickers' sheet comes with the screens that draw them, not with the first load.
    const dates =
      fs.readFileSync(require.resolve('@mantine/dates/styles.css'), 'utf8').match(/\.m_[0-9a-f]{8}\b/g) ?? [];
    expect(dates.length).toBeGreaterThan(0);
    expect(dates.filter((name) => css.includes(name))).toEqual([]);
  });

  test('the entry script is cached for a year and sent with brotli, gzip or plain as the client accepts', async () => {
    const html = await (await get('/dashboard')).text();
    const script = /src="(\/dashboard\/assets\/index-[\w-]+\.js)"/.exec(html)![1];
    const plain = await get(script, { 'accept-encoding': 'identity' });
    const plainBody = Buffer.from(await plain.arrayBuffer());
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable|immutable.*max-age=31536000/);
    expect(plain.headers.get('content-encoding')).toBeNull();

    const brotli = await get(script, { 'accept-encoding': 'br' });
    expect(brotli.headers.get('content-encoding')).toBe('br');
    // fetch decodes what it was sent: the same script either way.
    expect(Buffer.from(await brotli.arrayBuffer()).equals(plainBody)).toBe(true);
    const gzip = await get(script, { 'accept-encoding': 'gzip' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
  });

  test('an unknown asset is a 404 in the error envelope, not the app page', async () => {
    const missing = await get('/dashboard/assets/nothing-here.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
