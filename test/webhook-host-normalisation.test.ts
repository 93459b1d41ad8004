import crypto from 'node:crypto';
import { liveUrlRefusal } from '../src/domain/shared/url-policy';
import { TestServer, startTestServer, waitFor } from './support/harness';
import { Spawned, spawnBudget, spawnTs } from './support/process';
import { Receiver } from './support/receiver';
import { SmtpSink } from './support/smtp-sink';

/**
 * A webhook host is judged in one normal form (issue 26, finding 6): `https://localhost./` (a
 * trailing dot) was accepted in production while 16 other private encodings were refused. The
 * registration check and the check before every attempt are the same function; the attempt is
 * tested in a worker process started in production configuration.
 */
describe('webhook host names are normalised before the private-address check', () => {
  // Hosts that do not resolve here (a trailing dot, *.localhost) must not pass as "not proof of a private address".
  const unresolvable = async (hostname: string): Promise<string[]> => {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };

  test.each([
    'https://localhost./hook',
    'https://LocalHost./hook',
    'https://localhost../hook',
    'https://api.localhost/hook',
    'https://api.localhost./hook',
    'https://127.0.0.1./hook',
    'https://2130706433/hook',
    'https://0x7f.0.0.1/hook',
    'https://0177.0.0.1/hook',
    'https://127.1/hook',
    'https://[::ffff:7f00:1]/hook',
    'https://[0:0:0:0:0:ffff:127.0.0.1]/hook',
    'https://\uFF4C\uFF4F\uFF43\uFF41\uFF4C\uFF48\uFF4F\uFF53\uFF54./hook',
  ])('refuses %s at registration, whatever the resolver says', async (url) => {
    expect(await liveUrlRefusal(url, unresolvable)).toMatch(
      /^must be publicly reachable: \S+ resolves to \S+ \(loopback\)/,
    );
  });

  test('a public host name with a trailing dot or capitals is still accepted', async () => {
    expect(await liveUrlRefusal('https://Hooks.Example.COM./x', async () => ['93.184.216.34'])).toBeNull();
  });

  describe('a worker in production configuration', () => {
    let server: TestServer;
    let worker: Spawned | null = null;
    const receiver = new Receiver();
    const smtp = new SmtpSink();

    beforeAll(async () => {
      await receiver.start();
      await smtp.start();
      server = await startTestServer();
    });
    afterAll(async () => {
      if (worker) {
        worker.child.kill('SIGTERM');
        await worker.exited;
      }
      await server.close();
      await receiver.close();
      await smtp.close();
    });

    test(
      'refuses at attempt time a stored URL whose host is loopback in any spelling, and sends nothing',
      async () => {
        const port = new URL(receiver.url('/')).port;
        const paths = {
          trailingDot: `/dot-${crypto.randomBytes(3).toString('hex')}`,
          plain: `/plain-${crypto.randomBytes(3).toString('hex')}`,
        };
        const merchants = [];
        // The URLs are stored as they would be by a deployment that allowed them, or before this check existed.
        for (const [host, path] of [
          ['localhost.', paths.trailingDot],
          ['localhost', paths.plain],
        ] as const) {
          const merchant = await server.createMerchant();
          await server.runtime.dataSource.query(
            `UPDATE business_settings SET webhook_url = $2 WHERE business_id = $1 AND livemode = false`,
            [merchant.businessId, `http://${host}:${port}${path}`],
          );
          const funded = await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
            headers: { 'x-api-key': merchant.apiKey },
            body: { currency: 'USD', amount: '1.00' },
          });
          expect(funded.status).toBe(201);
          merchants.push(merchant);
        }

        // The production settings the README asks for (NODE_ENV=production, its required variables), and nothing else:
        // WEBHOOK_ALLOW_PRIVATE_TARGETS is off by default there.
        worker = spawnTs('src/cli/index.ts', ['worker'], {
          NODE_ENV: 'production',
          DATABASE_URL: server.databaseUrl,
          TESSERA_MASTER_KEY: 'test-master-key',
          JWT_SECRET: 'test-jwt-secret',
          PUBLIC_BASE_URL: 'https://pay.example.com',
          MAIL_SMTP_URL: smtp.url,
          MAIL_FROM: 'no-reply@example.com',
          HOST: '0.0.0.0',
          WORKER_POLL_INTERVAL_MS: '50',
          WEBHOOK_RETRY_SCHEDULE_S: '0',
          WEBHOOK_ALLOW_PRIVATE_TARGETS: undefined,
        });
        await worker.waitFor(/Worker running/);

        for (const merchant of merchants) {
          const [row] = await waitFor(
            () =>
              server.runtime.dataSource.query(
                `SELECT * FROM webhook_deliveries WHERE business_id = $1 ORDER BY created_at`,
                [merchant.businessId],
              ),
            (rows: any[]) => rows.length > 0 && rows.every((row) => row.attempt_count > 0),
            120_000,
            100,
          );
          expect(row).toMatchObject({
            status: 'permanently_failed',
            response_status: null,
            response_body: null,
            error_message: expect.stringMatching(
              /^Not delivered: the URL must be publicly reachable: localhost resolves to (127\.0\.0\.1|::1) \(loopback\)/,
            ),
          });
        }
        expect(receiver.at(paths.trailingDot)).toEqual([]);
        expect(receiver.at(paths.plain)).toEqual([]);
      },
      spawnBudget(1),
    );
  });
});
