import { loadConfig } from '../src/config';
import { ConfigError } from '../src/startup-error';
import { TestServer, startTestServer } from './support/harness';
import { api, cardForm, createSession, pathOf } from './support/checkout';

/** Finding 10, "No trusted-proxy setting": TRUST_PROXY decides whose address a request has. */

const anonymous = (server: TestServer, forwardedFor: string) =>
  fetch(`${server.baseUrl}/api/v1/business/wallets`, { headers: { 'x-forwarded-for': forwardedFor } });

async function payFrom(server: TestServer, checkoutUrl: string, forwardedFor: string) {
  return fetch(`${server.baseUrl}${pathOf(checkoutUrl)}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
    body: new URLSearchParams(cardForm('4242424242424242')).toString(),
  });
}

async function paymentOf(server: TestServer, sessionId: string) {
  const [row] = await server.runtime.dataSource.query(
    `SELECT status, ip_address, failure_message FROM payments WHERE source_id = $1 ORDER BY created_at DESC LIMIT 1`,
    [sessionId],
  );
  return row as { status: string; ip_address: string | null; failure_message: string | null };
}

describe('TRUST_PROXY: the setting', () => {
  test('is off by default and accepts true/false, a hop count and a list of addresses and CIDRs', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.10,loopback, ::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.0.2.10',
      'loopback',
      '::1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'the-balancer' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/);
  });
});

describe('TRUST_PROXY off (default): X-Forwarded-For is a header anyone can send', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ rateLimitMax: 50 });
  });
  afterAll(async () => {
    await server.close();
  });

  test('a forged X-Forwarded-For buys no new rate-limit budget', async () => {
    const remaining = [];
    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      remaining.push(Number((await anonymous(server, address)).headers.get('x-ratelimit-remaining')));
    }
    expect(remaining).toEqual([remaining[0], remaining[0] - 1, remaining[0] - 2]);
  });

  test('fraud rules and the payment record see the socket peer, not the forged header', async () => {
    const merchant = await server.signUp();
    const call = (method: string, path: string, body?: unknown) =>
      server.request(method, path, { headers: { 'x-api-key': merchant.apiKey }, body });
    expect((await call('POST', '/api/v1/business/fraud/blocklist', { type: 'ip', value: '203.0.113.9' })).status).toBe(
      201,
    );
    const session = await createSession(server, merchant);
    const response = await payFrom(server, session.checkoutUrl, '203.0.113.9');
    expect(response.status).toBe(303);
    expect(await paymentOf(server, session.id)).toMatchObject({ status: 'COMPLETED', ip_address: '127.0.0.1' });
  });
});

describe('TRUST_PROXY set: the client address is the one the trusted proxy forwarded', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ rateLimitMax: 50, trustProxy: ['127.0.0.1'] });
  });
  afterAll(async () => {
    await server.close();
  });

  test('behind the balancer every anonymous caller has their own rate-limit bucket', async () => {
    const remaining = async (address: string) =>
      (await anonymous(server, address)).headers.get('x-ratelimit-remaining');
    expect([await remaining('198.51.100.1'), await remaining('198.51.100.1'), await remaining('198.51.100.1')]).toEqual(
      ['49', '48', '47'],
    );
    expect(await remaining('198.51.100.2')).toBe('49');
    expect(await remaining('198.51.100.1')).toBe('46');
  });

  test('an IP block-list entry blocks the payer behind the balancer, and the payment records their address', async () => {
    const merchant = await server.signUp();
    const call = api(server, merchant);
    expect((await call('POST', '/api/v1/business/fraud/blocklist', { type: 'ip', value: '203.0.113.9' })).status).toBe(
      201,
    );
    const blocked = await createSession(server, merchant);
    expect((await payFrom(server, blocked.checkoutUrl, '203.0.113.9')).status).toBe(402);
    expect(await paymentOf(server, blocked.id)).toMatchObject({ status: 'FAILED', ip_address: '203.0.113.9' });
    expect((await paymentOf(server, blocked.id)).failure_message).toMatch(/block list/);

    const allowed = await createSession(server, merchant);
    expect((await payFrom(server, allowed.checkoutUrl, '203.0.113.10, 127.0.0.1')).status).toBe(303);
    expect(await paymentOf(server, allowed.id)).toMatchObject({ status: 'COMPLETED', ip_address: '203.0.113.10' });
  });
});
