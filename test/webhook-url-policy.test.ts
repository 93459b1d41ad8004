import http from 'node:http';
import net, { AddressInfo, LookupFunction } from 'node:net';
import { Agent, fetch } from 'undici';
import { Mode } from '../src/domain/shared/modes';
import { RequestContext, inTransaction } from '../src/domain/shared/context';
import {
  HostResolver,
  NonPublicAddressError,
  WebhookTargetPolicy,
  liveUrlRefusal,
  publicAddressLookup,
} from '../src/domain/shared/url-policy';
import { WebhookService } from '../src/domain/webhooks/webhook.service';
import { startWorker, stopWorker } from '../src/jobs/worker';
import { TestServer, startTestServer, waitFor } from './support/harness';

/** Live webhook URLs must be https and publicly reachable (design section 6); sandbox URLs may be local. */
describe('webhook URL policy', () => {
  describe('liveUrlRefusal', () => {
    test.each([
      ['http://hooks.example.com/x', /https/],
      ['https://127.0.0.1/x', /loopback/],
      ['https://10.1.2.3/x', /private/],
      ['https://192.168.0.7/x', /private/],
      ['https://172.16.5.5/x', /private/],
      ['https://169.254.169.254/latest/meta-data', /linkLocal/],
      ['https://100.64.0.1/x', /carrierGradeNat/],
      ['https://0.0.0.0/x', /unspecified/],
      ['https://[::1]/x', /loopback/],
      ['https://[fd00::1]/x', /uniqueLocal/],
      ['https://[::ffff:127.0.0.1]/x', /loopback/],
    ])('refuses %s', async (url, reason) => {
      expect(await liveUrlRefusal(url)).toMatch(reason);
    });

    test('refuses a host name when any of its addresses is not public', async () => {
      const resolver = async () => ['93.184.216.34', '10.0.0.1'];
      expect(await liveUrlRefusal('https://rebind.example/x', resolver)).toMatch(/resolves to 10\.0\.0\.1 \(private\)/);
    });

    test('accepts a host name whose addresses are all public, and a public IP literal', async () => {
      expect(
        await liveUrlRefusal('https://hooks.example/x', async () => ['93.184.216.34', '2606:2800:220:1::1']),
      ).toBeNull();
      expect(await liveUrlRefusal('https://93.184.216.34/x')).toBeNull();
    });

    test('localhost is refused (it resolves to loopback)', async () => {
      expect(await liveUrlRefusal('https://localhost:8443/x')).toMatch(/loopback/);
    });
  });

  describe('publicAddressLookup (the connection of a live delivery)', () => {
    const lookUp = (lookup: LookupFunction, hostname: string, options: { all?: boolean; family?: number } = {}) =>
      new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) => {
        lookup(hostname, options, (error, address, family) => resolve({ error, address, family }));
      });

    test.each([
      [['127.0.0.1'], /rebind\.example resolves to 127\.0\.0\.1 \(loopback\)/],
      [['10.0.0.5'], /resolves to 10\.0\.0\.5 \(private\)/],
      [['169.254.169.254'], /resolves to 169\.254\.169\.254 \(linkLocal\)/],
      [['93.184.216.34', '10.0.0.1'], /resolves to 10\.0\.0\.1 \(private\)/],
      [['::ffff:127.0.0.1'], /loopback/],
    ])('refuses a host that resolves to %j', async (addresses, reason) => {
      const { error } = await lookUp(
        publicAddressLookup(async () => addresses),
        'rebind.example',
        { all: true },
      );
      expect(error).toBeInstanceOf(NonPublicAddressError);
      expect(error!.message).toMatch(reason);
      expect(error!.message).toMatch(/^must be publicly reachable/);
    });

    test('hands the connection exactly the public addresses it checked, in both callback forms', async () => {
      const resolver = async () => ['93.184.216.34', '2606:2800:220:1::1'];
      expect(await lookUp(publicAddressLookup(resolver), 'hooks.example', { all: true })).toEqual({
        error: null,
        address: [
          { address: '93.184.216.34', family: 4 },
          { address: '2606:2800:220:1::1', family: 6 },
        ],
        family: undefined,
      });
      expect(await lookUp(publicAddressLookup(resolver), 'hooks.example')).toEqual({
        error: null,
        address: '93.184.216.34',
        family: 4,
      });
      expect(await lookUp(publicAddressLookup(resolver), 'hooks.example', { family: 6 })).toEqual({
        error: null,
        address: '2606:2800:220:1::1',
        family: 6,
      });
    });

    test('resolves once per connection: an answer that changes after the URL check is judged again', async () => {
      const answers = [['93.184.216.34'], ['127.0.0.1']];
      const rebinding: HostResolver = async () => answers.shift() ?? [];
      expect(await liveUrlRefusal('https://rebind.example/x', rebinding)).toBeNull();
      expect((await lookUp(publicAddressLookup(rebinding), 'rebind.example')).error).toBeInstanceOf(
        NonPublicAddressError,
      );
    });

    test('a request through it to a host resolving to 127.0.0.1 never opens a connection; the same request without it does', async () => {
      let connections = 0;
      const target = http.createServer((_request, response) => response.end('ok'));
      target.on('connection', () => {
        connections += 1;
      });
      await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
      const port = (target.address() as AddressInfo).port;
      const toLoopback: HostResolver = async () => ['127.0.0.1'];
      const pinned = new Agent({ connect: { lookup: publicAddressLookup(toLoopback) } });
      const unchecked = new Agent({
        connect: {
          lookup: (_host: string, _options: unknown, callback: (...args: unknown[]) => void) =>
            callback(null, [{ address: '127.0.0.1', family: 4 }]),
        } as never,
      });
      try {
        const refused = await fetch(`http://rebind.example:${port}/x`, { dispatcher: pinned }).catch(
          (error: Error) => error,
        );
        expect(refused).toBeInstanceOf(Error);
        expect((refused as Error).cause).toBeInstanceOf(NonPublicAddressError);
        expect(connections).toBe(0);

        const reached = await fetch(`http://rebind.example:${port}/x`, { dispatcher: unchecked });
        expect(await reached.text()).toBe('ok');
        expect(connections).toBe(1);
      } finally {
        await Promise.all([pinned.close(), unchecked.close()]);
        target.closeAllConnections();
        await new Promise((resolve) => target.close(resolve));
      }
    });
  });

  describe('over the API and at delivery', () => {
    let server: TestServer;
    // A refusal comes before any connection; the generous time limit only keeps a busy machine's slow lookup from passing for one.
    beforeAll(async () => {
      server = await startTestServer({
        webhookRetryScheduleSeconds: [0],
        webhookTimeoutMs: 10_000,
        workerPollIntervalMs: 50,
      });
    });
    afterAll(async () => server.close());

    async function liveKeyOf(token: string): Promise<string> {
      const issued = await server.graphql(
        'mutation { createLiveCredentials { credentials { apiKey } } }',
        {},
        { authorization: `Bearer ${token}` },
      );
      return issued.body.data.createLiveCredentials.credentials.apiKey;
    }

    test('PUT /business/config with live credentials refuses private and loopback URLs, and nothing changes', async () => {
      const merchant = await server.signUp();
      const liveKey = await liveKeyOf(merchant.token);
      for (const webhookUrl of [
        'https://127.0.0.1/hook',
        'https://localhost/hook',
        'https://169.254.169.254/hook',
        'https://[::1]/hook',
      ]) {
        const response = await server.request('PUT', '/api/v1/business/config', {
          headers: { 'x-api-key': liveKey },
          body: { webhookUrl },
        });
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({
          code: 'VALIDATION_ERROR',
          errors: { webhookUrl: [expect.stringMatching(/publicly reachable/)] },
        });
      }
      const config = await server.request('GET', '/api/v1/business/config', { headers: { 'x-api-key': liveKey } });
      expect(config.body.data.webhookUrl).toBeNull();
    });

    test('sandbox credentials may register a plain http URL on this machine', async () => {
      const merchant = await server.signUp();
      const response = await server.request('PUT', '/api/v1/business/config', {
        headers: { 'x-api-key': merchant.apiKey },
        body: { webhookUrl: 'http://127.0.0.1:9/hook' },
      });
      expect(response.status).toBe(200);
    });

    test('a live URL that now points at a private address is not called at delivery time', async () => {
      const hits: string[] = [];
      const receiver = http.createServer((request, response) => {
        hits.push(request.url ?? '');
        response.end('ok');
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const port = (receiver.address() as AddressInfo).port;
      const merchant = await server.signUp();
      await liveKeyOf(merchant.token);
      // As if DNS had changed after registration: the stored live URL now points at loopback.
      await server.runtime.dataSource.query(
        `UPDATE business_settings SET webhook_url = $2 WHERE business_id = $1 AND livemode = true`,
        [merchant.businessId, `https://127.0.0.1:${port}/live`],
      );
      const worker = await startWorker(server.runtime.core, server.databaseUrl, () => undefined);
      try {
        const ctx = new RequestContext(
          server.runtime.dataSource,
          { kind: 'system', name: 'test' },
          merchant.businessId,
          Mode.LIVE,
        );
        await inTransaction(ctx, (tx) => server.runtime.core.events.record(tx, 'test.live_event', { n: 1 }));
        const rows = await waitFor(
          (): Promise<Array<{ status: string; error_message: string | null; attempt_count: number }>> =>
            server.runtime.dataSource.query(
              `SELECT status, error_message, attempt_count FROM webhook_deliveries WHERE business_id = $1`,
              [merchant.businessId],
            ),
          (found) => found[0]?.attempt_count > 0,
          undefined,
          50,
        );
        expect(rows).toEqual([
          {
            status: 'permanently_failed',
            attempt_count: 1,
            error_message: expect.stringMatching(/^Not delivered: the URL must be publicly reachable/),
          },
        ]);
        expect(hits).toEqual([]);
      } finally {
        await stopWorker(worker);
        receiver.close();
      }
    });

    test('a live host that passes the URL check and then resolves to 127.0.0.1 (DNS rebinding) is refused at connect time', async () => {
      let connections = 0;
      const target = net.createServer((socket) => socket.destroy());
      target.on('connection', () => {
        connections += 1;
      });
      await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
      const port = (target.address() as AddressInfo).port;
      const merchant = await server.signUp();
      await liveKeyOf(merchant.token);
      await server.runtime.dataSource.query(
        `UPDATE business_settings SET webhook_url = $2 WHERE business_id = $1 AND livemode = true`,
        [merchant.businessId, `https://rebind.example:${port}/live`],
      );
      const lookups: string[] = [];
      const rebinding: HostResolver = async (host) => {
        lookups.push(host);
        return lookups.length === 1 ? ['93.184.216.34'] : ['127.0.0.1'];
      };
      const core = server.runtime.core;
      const webhooks = new WebhookService(
        {
          timeoutMs: 500,
          retryScheduleSeconds: [0],
          targets: new WebhookTargetPolicy({ allowPrivateTestTargets: true, resolveHost: rebinding }),
        },
        () => 'bs_live_secret',
        core.treasuryWebhookEndpoints,
        core.pubSub,
        core.v1Keys,
      );
      try {
        const ctx = new RequestContext(
          server.runtime.dataSource,
          { kind: 'system', name: 'test' },
          merchant.businessId,
          Mode.LIVE,
        );
        const [delivery] = await inTransaction(ctx, async (tx) => {
          const event = await core.events.record(tx, 'test.rebinding', { n: 1 });
          return core.deliveryLog.deliveriesOf(tx, [event.id]);
        });
        const attempted = await webhooks.attempt(ctx, delivery.id);
        expect(lookups).toEqual(['rebind.example', 'rebind.example']);
        expect(attempted).toMatchObject({
          status: 'permanently_failed',
          attemptCount: 1,
          responseStatus: null,
          errorMessage:
            'Not delivered: the URL must be publicly reachable: rebind.example resolves to 127.0.0.1 (loopback)',
        });
        expect(connections).toBe(0);
      } finally {
        await webhooks.close();
        await new Promise((resolve) => target.close(resolve));
      }
    });
  });
});
