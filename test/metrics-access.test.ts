import { Config, loadConfig } from '../src/config';
import { TestServer, createTestDatabase, dropTestDatabase, startTestServer } from './support/harness';
import { freePort } from './support/process';

/**
 * `/metrics` in production (issue 26, finding 9): off the public port unless the operator gives it
 * a bearer token (METRICS_TOKEN) or a listener of its own (METRICS_PORT, METRICS_HOST); outside
 * production it stays open on the (loopback by default) public port, and takes the same settings.
 */
const PRODUCTION = {
  NODE_ENV: 'production',
  TESSERA_MASTER_KEY: 'k',
  JWT_SECRET: 'j',
  PUBLIC_BASE_URL: 'https://pay.example.com',
  MAIL_SMTP_URL: 'smtp://mail.example.com',
  MAIL_FROM: 'no-reply@example.com',
  HOST: '0.0.0.0',
};
const TOKEN = 'metrics-token-0123456789abcdef';

describe('METRICS_TOKEN, METRICS_PORT and METRICS_HOST are checked at start, with one line each', () => {
  test.each([
    [{ METRICS_PORT: 'abc' }, /^Configuration error: METRICS_PORT must be a port number \(1 to 65535\), got "abc"$/],
    [{ METRICS_PORT: '70000' }, /^Configuration error: METRICS_PORT must be a port number/],
    [{ METRICS_PORT: '4000', PORT: '4000' }, /^Configuration error: METRICS_PORT \(4000\) must differ from PORT/],
    [{ METRICS_HOST: '127.0.0.1' }, /^Configuration error: METRICS_HOST is set but METRICS_PORT is not/],
    [{ METRICS_TOKEN: 'short' }, /^Configuration error: METRICS_TOKEN must be at least 16 characters/],
  ])('%j is refused', (env, message) => {
    let thrown: Error | null = null;
    try {
      loadConfig({ ...PRODUCTION, ...env });
    } catch (error) {
      thrown = error as Error;
    }
    expect(thrown?.name).toBe('ConfigError');
    expect(thrown?.message).toMatch(message);
    expect(thrown?.message).not.toContain('\n');
  });

  test('production without either setting keeps /metrics off the public port; outside production it stays open there', () => {
    expect(loadConfig(PRODUCTION)).toMatchObject({ metricsToken: undefined, metricsPort: undefined });
    expect(loadConfig({ ...PRODUCTION, METRICS_TOKEN: TOKEN, METRICS_PORT: '9464' })).toMatchObject({
      metricsToken: TOKEN,
      metricsPort: 9464,
      metricsHost: '127.0.0.1',
    });
    expect(loadConfig({ ...PRODUCTION, METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toMatchObject({
      metricsPort: 9464,
      metricsHost: '0.0.0.0',
    });
  });
});

describe('/metrics', () => {
  let databaseUrl: string;
  let server: TestServer | null = null;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });
  afterEach(async () => {
    await server?.close();
    server = null;
  });
  afterAll(async () => dropTestDatabase(databaseUrl));

  const start = async (overrides: Partial<Config>) => {
    server = await startTestServer({ databaseUrl, ...overrides });
    return server;
  };
  const scrape = (url: string, authorization?: string) =>
    fetch(url, { headers: authorization ? { authorization } : {} }).then(async (response) => ({
      status: response.status,
      body: await response.text(),
    }));

  test('outside production: open on the public port, as before', async () => {
    const { baseUrl } = await start({});
    const open = await scrape(`${baseUrl}/metrics`);
    expect(open.status).toBe(200);
    expect(open.body).toContain('tessera_http_requests_total');
  });

  test('production without METRICS_TOKEN or METRICS_PORT: 404 on the public port', async () => {
    const { baseUrl } = await start({ production: true });
    expect((await scrape(`${baseUrl}/metrics`)).status).toBe(404);
    expect((await scrape(`${baseUrl}/metrics`, `Bearer ${TOKEN}`)).status).toBe(404);
  });

  test('production with METRICS_TOKEN: 401 without the token or with a wrong one, 200 with it', async () => {
    const { baseUrl } = await start({ production: true, metricsToken: TOKEN });
    const without = await scrape(`${baseUrl}/metrics`);
    expect(without.status).toBe(401);
    expect(without.body).not.toContain('tessera_');
    expect((await scrape(`${baseUrl}/metrics`, `Bearer ${TOKEN.slice(0, -1)}x`)).status).toBe(401);
    expect((await scrape(`${baseUrl}/metrics`, `Bearer ${TOKEN}extra`)).status).toBe(401);
    expect((await scrape(`${baseUrl}/metrics`, TOKEN)).status).toBe(401);
    const scraped = await scrape(`${baseUrl}/metrics`, `Bearer ${TOKEN}`);
    expect(scraped.status).toBe(200);
    expect(scraped.body).toContain('tessera_http_requests_total');
  });

  test('production with METRICS_PORT: served on that listener, 404 on the public port; with a token too, the listener asks for it', async () => {
    const metricsPort = await freePort();
    const { baseUrl } = await start({ production: true, metricsPort, metricsHost: '127.0.0.1' });
    expect((await scrape(`${baseUrl}/metrics`)).status).toBe(404);
    const scraped = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.body).toContain('tessera_http_requests_total');
    expect((await scrape(`http://127.0.0.1:${metricsPort}/anything-else`)).status).toBe(404);
    await server!.close();
    server = null;

    const guardedPort = await freePort();
    const guarded = await start({
      production: true,
      metricsPort: guardedPort,
      metricsHost: '127.0.0.1',
      metricsToken: TOKEN,
    });
    expect((await scrape(`${guarded.baseUrl}/metrics`, `Bearer ${TOKEN}`)).status).toBe(404);
    expect((await scrape(`http://127.0.0.1:${guardedPort}/metrics`)).status).toBe(401);
    expect((await scrape(`http://127.0.0.1:${guardedPort}/metrics`, `Bearer ${TOKEN}`)).status).toBe(200);
  });
});
