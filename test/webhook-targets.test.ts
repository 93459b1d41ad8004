import crypto from 'node:crypto';
import net, { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { loadConfig } from '../src/config';
import { NO_ANSWER, readTruncated } from '../src/domain/webhooks/webhook.service';
import { TestMerchant, TestServer, startDeliveringServer, waitFor } from './support/harness';
import { Receiver } from './support/receiver';

/**
 * Finding 3, "Test-mode webhooks are an SSRF with read-back": private targets are a matter of the
 * deployment (WEBHOOK_ALLOW_PRIVATE_TARGETS, on outside production), never readable, never a port scanner.
 */

const pathFor = (name: string) => `/${name}-${crypto.randomBytes(3).toString('hex')}`;

function helpers(server: () => TestServer) {
  const call = (merchant: TestMerchant, method: string, path: string, body?: unknown) =>
    server().request(method, path, { headers: { 'x-api-key': merchant.apiKey }, body });
  const fund = async (merchant: TestMerchant) =>
    expect(
      (await call(merchant, 'POST', '/api/v1/business/sandbox/wallets/fund', { currency: 'USD', amount: '1.00' }))
        .status,
    ).toBe(201);
  const deliveriesOf = (businessId: string): Promise<any[]> =>
    server().runtime.dataSource.query(`SELECT * FROM webhook_deliveries WHERE business_id = $1 ORDER BY created_at`, [
      businessId,
    ]);
  const attempted = (count: number) => (rows: any[]) =>
    rows.length >= count && rows.every((row) => row.attempt_count > 0);
  return { call, fund, deliveriesOf, attempted };
}

describe('WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  test('is on outside production, off with NODE_ENV=production, and the operator may turn it either way', () => {
    const production = {
      NODE_ENV: 'production',
      TESSERA_MASTER_KEY: 'k',
      JWT_SECRET: 'j',
      PUBLIC_BASE_URL: 'https://pay.example.com',
      MAIL_SMTP_URL: 'smtp://mail.example.com',
      MAIL_FROM: 'no-reply@example.com',
      HOST: '0.0.0.0',
    };
    expect(loadConfig({}).webhookAllowPrivateTargets).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).webhookAllowPrivateTargets).toBe(true);
    expect(loadConfig(production).webhookAllowPrivateTargets).toBe(false);
    expect(loadConfig({ ...production, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhookAllowPrivateTargets).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }).webhookAllowPrivateTargets).toBe(false);
  });
});

describe('where private webhook targets are allowed (a developer machine)', () => {
  let server: TestServer;
  const receiver = new Receiver();
  const { call, fund, deliveriesOf, attempted } = helpers(() => server);

  beforeAll(async () => {
    await receiver.start();
    // Long enough for a loaded machine's local receiver to answer; the silent port still times out well within waitFor's deadline.
    server = await startDeliveringServer({ webhookTimeoutMs: 3000 });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  test("a private target's answer is kept as its status only: its body is never stored nor shown", async () => {
    const merchant = await server.signUp();
    const secretPath = pathFor('metadata');
    receiver.program(secretPath, [{ status: 200, body: 'aws-secret-access-key=AKIA-INTERNAL' }]);
    const endpointPath = pathFor('endpoint');
    receiver.program(endpointPath, [{ status: 404, body: 'internal admin panel' }]);
    expect(
      (await call(merchant, 'PUT', '/api/v1/business/config', { webhookUrl: receiver.url(secretPath) })).status,
    ).toBe(200);
    expect(
      (await call(merchant, 'POST', '/api/v1/webhook-endpoints', { url: receiver.url(endpointPath), events: ['*'] }))
        .status,
    ).toBe(201);
    await fund(merchant);

    const rows = await waitFor(() => deliveriesOf(merchant.businessId), attempted(2));
    expect(receiver.at(secretPath)).toHaveLength(1);
    expect(rows.map((row) => [row.target, row.response_status, row.response_body])).toEqual(
      expect.arrayContaining([
        ['webhook_url', 200, null],
        ['endpoint', 404, null],
      ]),
    );

    const listed = await call(merchant, 'GET', '/api/v1/business/config/webhook-deliveries');
    expect(listed.body.data.items[0]).toMatchObject({ responseStatus: 200, responseBody: null });
    const graphql = await server.graphql(
      '{ webhookUrlDeliveries(first: 5) { edges { node { responseStatus responseBody } } } }',
      {},
      { 'x-api-key': merchant.apiKey },
    );
    expect(graphql.body.data.webhookUrlDeliveries.edges[0].node).toEqual({ responseStatus: 200, responseBody: null });
    expect(JSON.stringify([rows, listed.body, graphql.body])).not.toMatch(/AKIA-INTERNAL|admin panel/);
  });

  test('a refused port, a port that never answers and an unknown host fail with the same message and no timing', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    // Accepts and never answers; its connections are ended with it (closing a server only stops it listening).
    const accepted = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      accepted.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as AddressInfo).port;
    try {
      const urls = [
        `http://127.0.0.1:${closedPort}/x`,
        `http://127.0.0.1:${silentPort}/x`,
        'http://no-such-host.invalid/x',
      ];
      const merchant = await server.signUp();
      for (const url of urls)
        expect((await call(merchant, 'POST', '/api/v1/webhook-endpoints', { url, events: ['*'] })).status).toBe(201);
      await fund(merchant);
      const rows = await waitFor(() => deliveriesOf(merchant.businessId), attempted(3));
      const byUrl = new Map(rows.map((row) => [row.url, row]));
      for (const url of urls)
        expect(byUrl.get(url)).toMatchObject({ response_status: null, response_body: null, error_message: NO_ANSWER });
      expect(byUrl.get(urls[0]).response_time_ms).toBeNull();
      expect(byUrl.get(urls[1]).response_time_ms).toBeNull();
    } finally {
      for (const socket of accepted) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  test('a public target still shows the first 2 KB of its answer', async () => {
    const body = Readable.from([
      Buffer.from('y'.repeat(1500)),
      Buffer.from('y'.repeat(1500)),
      Buffer.from('y'.repeat(2000)),
    ]);
    expect(await readTruncated(body, 2048)).toBe('y'.repeat(2048));
    expect(body.destroyed).toBe(true);
  });
});

describe('where private webhook targets are refused (NODE_ENV=production)', () => {
  let server: TestServer;
  const receiver = new Receiver();
  const { call, fund, deliveriesOf, attempted } = helpers(() => server);

  beforeAll(async () => {
    await receiver.start();
    server = await startDeliveringServer({ webhookTimeoutMs: 300, webhookAllowPrivateTargets: false });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  const PRIVATE_URLS = [
    'http://127.0.0.1:8080/x',
    'http://localhost/x',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.7/x',
    'http://192.168.1.1/x',
    'http://[::1]/x',
    'http://[::ffff:127.0.0.1]/x',
    'http://0.0.0.0/x',
  ];

  test('test credentials cannot register a private webhookUrl or endpoint, over REST or GraphQL', async () => {
    const merchant = await server.signUp();
    for (const url of PRIVATE_URLS) {
      const config = await call(merchant, 'PUT', '/api/v1/business/config', { webhookUrl: url });
      expect(config.status).toBe(400);
      expect(config.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        errors: { webhookUrl: [expect.stringMatching(/publicly reachable/)] },
      });
      const endpoint = await call(merchant, 'POST', '/api/v1/webhook-endpoints', { url, events: ['*'] });
      expect(endpoint.status).toBe(400);
      expect(endpoint.body.error.errors.url).toEqual([expect.stringMatching(/publicly reachable/)]);
    }
    const graphql = await server.graphql(
      'mutation($url: String) { updateBusinessSettings(input: { webhookUrl: $url }) { businessSettings { webhookUrl } userErrors { field message code } } }',
      { url: 'http://169.254.169.254/' },
      { authorization: `Bearer ${merchant.token}` },
    );
    expect(graphql.body.data.updateBusinessSettings).toEqual({
      businessSettings: null,
      userErrors: [
        {
          field: ['input', 'webhookUrl'],
          message: expect.stringMatching(/publicly reachable/),
          code: 'VALIDATION_ERROR',
        },
      ],
    });
    const listed = await call(merchant, 'GET', '/api/v1/webhook-endpoints');
    expect(listed.body.data.items).toEqual([]);
    expect((await call(merchant, 'GET', '/api/v1/business/config')).body.data.webhookUrl).toBeNull();
  });

  test('a public http URL is still accepted in test mode', async () => {
    const merchant = await server.signUp();
    expect(
      (
        await call(merchant, 'POST', '/api/v1/webhook-endpoints', {
          url: 'http://93.184.216.34/hook',
          events: ['none.ever'],
        })
      ).status,
    ).toBe(201);
  });

  test('a stored test-mode URL that points at a private address is not called at delivery time', async () => {
    const merchant = await server.signUp();
    const path = pathFor('stored');
    await server.runtime.dataSource.query(
      `UPDATE business_settings SET webhook_url = $2 WHERE business_id = $1 AND livemode = false`,
      [merchant.businessId, receiver.url(path)],
    );
    await fund(merchant);
    const [row] = await waitFor(() => deliveriesOf(merchant.businessId), attempted(1));
    expect(row).toMatchObject({
      response_status: null,
      response_body: null,
      error_message: expect.stringMatching(/^Not delivered: the URL must be publicly reachable/),
    });
    expect(receiver.at(path)).toEqual([]);
  });
});
