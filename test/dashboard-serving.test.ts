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

  test('every path under /dashboard answers the same page, not cached, scripts only from this origin', async () => {
    const pages = await Promise.all(
      ['/dashboard', '/dashboard/payments', '/dashboard/payouts/schedules/x'].map((path) => get(path)),
    );
    const bodies = await Promise.all(pages.map((page) => page.text()));
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]).toMatch(/<script type="module" crossorigin src="\/dashboard\/assets\/index-[\w-]+\.js">/);
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
