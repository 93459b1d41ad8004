import { loadConfig } from '../src/config';
import { TESSERA_VERSION } from '../src/project';
import { TestServer, startTestServer } from './support/harness';
import { BROWSER_ACCEPT, buildExplorer } from './support/explorer';

/**
 * The front door (issue 25): the landing page at /, the GraphQL explorer a browser gets at
 * /graphql (GraphiQL served from this server: nothing from another host), and the API references
 * at /docs and /v1/docs.
 */

const html = { accept: BROWSER_ACCEPT };
const json = { accept: 'application/json' };

/** Every src and href of a page. */
const referencesOf = (page: string) => [...page.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]);

describe('The front door', () => {
  let server: TestServer;

  beforeAll(async () => {
    await buildExplorer();
    server = await startTestServer();
  }, 360_000);
  afterAll(async () => server?.close());

  describe('GET /', () => {
    test('a browser gets a page saying what the server is, its version and mode, with links that answer', async () => {
      const response = await server.request('GET', '/', { headers: html });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      const page: string = response.body;
      expect(page).toMatch(/<html lang="en">/);
      expect(page).toMatch(/<title>Tessera [^<]+<\/title>/);
      expect(page).toMatch(/<h1>Tessera/);
      expect(page).toContain(TESSERA_VERSION);
      expect(page).toContain('Sandbox');
      expect(page).toContain('open payments core');

      const links = referencesOf(page).filter((reference) => reference !== 'data:,');
      expect(links).toEqual(expect.arrayContaining(['/docs', '/v1/docs', '/graphql', '/healthz', '/readyz']));
      expect(links.filter((link) => !link.startsWith('/') || link.startsWith('//'))).toEqual([]);
      for (const link of links) {
        const answer = await fetch(`${server.baseUrl}${link}`, { headers: html });
        expect({ link, status: answer.status }).toEqual({ link, status: 200 });
      }
    });

    test('a client asking for JSON gets the same facts as JSON', async () => {
      const response = await server.request('GET', '/', { headers: json });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.body).toMatchObject({ name: 'Tessera', version: TESSERA_VERSION, mode: 'sandbox' });
      const links: Array<{ rel: string; href: string }> = response.body.links;
      expect(Object.fromEntries(links.map((link) => [link.rel, link.href]))).toEqual({
        dashboard: '/dashboard',
        'rest-reference': '/docs',
        'rest-openapi': '/api/v1/openapi.json',
        'v1-reference': '/v1/docs',
        'v1-openapi': '/v1/openapi.json',
        'graphql-explorer': '/graphql',
        health: '/healthz',
        readiness: '/readyz',
      });
      const page: string = (await server.request('GET', '/', { headers: html })).body;
      expect(referencesOf(page).filter((reference) => reference !== 'data:,')).toEqual(links.map((link) => link.href));
    });
  });

  describe('the GraphQL explorer at GET /graphql', () => {
    test('a browser gets the explorer page, whose every script and style sheet is served by this server', async () => {
      const response = await server.request('GET', '/graphql', { headers: html });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/https?:|\*/);
      const page: string = response.body;
      expect(page).toMatch(/<html lang="en">/);
      expect(page).toContain('<title>Tessera GraphQL explorer</title>');
      // Offline: nothing from another host, and no inline script (the CSP forbids it).
      expect(page).not.toMatch(/https?:\/\//);
      expect(page).not.toMatch(/<script>(?!<\/script>)/);

      // The icon is empty (`data:,`), so the browser does not ask for /favicon.ico.
      const assets = referencesOf(page).filter((reference) => reference !== 'data:,');
      expect(assets.filter((asset) => asset.endsWith('.js'))).toHaveLength(1);
      expect(assets.filter((asset) => asset.endsWith('.css'))).toHaveLength(1);
      for (const asset of assets) {
        expect(asset).toMatch(/^\/graphql\/explorer\/explorer-\w+\.(js|css)$/);
        const answer = await fetch(`${server.baseUrl}${asset}`, { headers: { 'accept-encoding': 'identity' } });
        expect({ asset, status: answer.status }).toEqual({ asset, status: 200 });
        expect(answer.headers.get('content-type')).toMatch(
          asset.endsWith('.js') ? /^application\/javascript/ : /^text\/css/,
        );
        expect(answer.headers.get('cache-control')).toContain('immutable');
        const body = await answer.text();
        expect(body.length).toBeGreaterThan(10_000);
        if (asset.endsWith('.js')) expect(body).toContain('graphiql');
      }
    });

    test('its assets are sent brotli- or gzip-compressed to a client that accepts it', async () => {
      const script = referencesOf((await server.request('GET', '/graphql', { headers: html })).body).find((asset) =>
        asset.endsWith('.js'),
      )!;
      const plain = await (
        await fetch(`${server.baseUrl}${script}`, { headers: { 'accept-encoding': 'identity' } })
      ).text();
      for (const encoding of ['br', 'gzip']) {
        const answer = await fetch(`${server.baseUrl}${script}`, { headers: { 'accept-encoding': encoding } });
        expect(answer.headers.get('content-encoding')).toBe(encoding);
        expect(answer.headers.get('vary')).toContain('accept-encoding');
        expect(await answer.text()).toBe(plain);
      }
    });

    test('API clients keep getting GraphQL at the same path: GET ?query= and POST', async () => {
      const get = await server.request('GET', `/graphql?query=${encodeURIComponent('{ __typename }')}`, {
        headers: { ...json, 'apollo-require-preflight': 'true' },
      });
      expect(get.status).toBe(200);
      expect(get.body).toEqual({ data: { __typename: 'Query' } });
      const post = await server.graphql('{ __typename }');
      expect(post.body).toEqual({ data: { __typename: 'Query' } });
    });
  });

  describe('the API references', () => {
    test('/docs/ leads to /docs', async () => {
      const response = await fetch(`${server.baseUrl}/docs/`, { redirect: 'manual' });
      expect(response.status).toBe(301);
      expect(response.headers.get('location')).toBe('/docs');
      expect((await fetch(`${server.baseUrl}/docs/`)).status).toBe(200);
    });

    test('/v1/docs is the /v1 reference: Swagger UI over /v1/openapi.json, every asset served by this server', async () => {
      const response = await server.request('GET', '/v1/docs', { headers: html });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.body).toContain('data-document="/v1/openapi.json"');
      expect(response.body).toContain('<title>Tessera /v1 API reference</title>');
      const assets = referencesOf(response.body);
      expect(assets).toEqual(
        expect.arrayContaining([
          '/v1/docs/assets/swagger-ui.css',
          '/v1/docs/assets/swagger-ui-bundle.js',
          '/v1/docs/init.js',
        ]),
      );
      for (const asset of assets) {
        const answer = await fetch(`${server.baseUrl}${asset}`);
        expect({ asset, status: answer.status }).toEqual({ asset, status: 200 });
      }
      expect((await server.request('GET', '/v1/openapi.json')).status).toBe(200);

      const slash = await fetch(`${server.baseUrl}/v1/docs/`, { redirect: 'manual' });
      expect(slash.status).toBe(301);
      expect(slash.headers.get('location')).toBe('/v1/docs');
    });
  });
});

describe('The front door in production', () => {
  const production = {
    NODE_ENV: 'production',
    TESSERA_MASTER_KEY: 'k',
    JWT_SECRET: 's',
    PUBLIC_BASE_URL: 'https://pay.example.com',
    MAIL_SMTP_URL: 'smtp://mail.example.com',
    MAIL_FROM: 'pay@example.com',
    HOST: '127.0.0.1',
  };
  let off: TestServer;
  let on: TestServer;

  beforeAll(async () => {
    await buildExplorer();
    const config = loadConfig(production);
    off = await startTestServer({ production: config.production, graphqlExplorer: config.graphqlExplorer });
    const turnedOn = loadConfig({ ...production, GRAPHQL_EXPLORER: 'on' });
    on = await startTestServer({
      databaseUrl: off.databaseUrl,
      production: turnedOn.production,
      graphqlExplorer: turnedOn.graphqlExplorer,
    });
  }, 360_000);
  afterAll(async () => {
    await on?.close();
    await off?.close();
  });

  test("the explorer is off unless GRAPHQL_EXPLORER turns it on: a browser gets Apollo's plain answer, and no asset is served", async () => {
    const page = await off.request('GET', '/graphql', { headers: html });
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.stringify(page.body)).not.toMatch(/explorer|graphiql|https?:/i);
    const script = referencesOf((await on.request('GET', '/graphql', { headers: html })).body).find((asset) =>
      asset.endsWith('.js'),
    )!;
    expect((await fetch(`${off.baseUrl}${script}`)).status).toBe(404);
  });

  test('turned on, the explorer answers a browser', async () => {
    const page = await on.request('GET', '/graphql', { headers: html });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Tessera GraphQL explorer</title>');
  });

  test('/ says production and links no explorer when it is off', async () => {
    const door = (await off.request('GET', '/', { headers: json })).body;
    expect(door).toMatchObject({ mode: 'production', version: TESSERA_VERSION });
    expect(door.links.map((link: { rel: string }) => link.rel)).not.toContain('graphql-explorer');
    const page: string = (await off.request('GET', '/', { headers: html })).body;
    expect(page).toContain('Production');
    expect(page).not.toContain('Sandbox');
    expect(
      (await on.request('GET', '/', { headers: json })).body.links.map((link: { rel: string }) => link.rel),
    ).toContain('graphql-explorer');
  });
});
