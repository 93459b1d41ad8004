import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, dropTestDatabase } from './support/harness';
import { freePort, spawnBudget, spawnTs } from './support/process';

const MAIN = 'src/main.ts';

async function isListening(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/healthz`);
    return true;
  } catch {
    return false;
  }
}

describe('npm start (the server process)', () => {
  test('with DATABASE_URL: migrates, prints the sandbox credentials on the first start only, serves, and stops cleanly on SIGTERM', async () => {
    const databaseUrl = await createTestDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-start-'));
    const env = { DATABASE_URL: databaseUrl, TESSERA_DATA_DIR: dataDir, WORKER_IN_PROCESS: 'true' };
    try {
      const port = await freePort();
      const first = spawnTs(MAIN, [], { ...env, PORT: String(port), LOG_LEVEL: 'info' });
      await first.waitFor(/Ready on/);
      const apiKey = /apiKey:\s+(bk_test_\S+)/.exec(first.output())?.[1];
      const apiSecret = /apiSecret:\s+(bs_test_\S+)/.exec(first.output())?.[1];
      expect(apiKey).toBeDefined();
      expect(apiSecret).toBeDefined();

      const token = await fetch(`http://127.0.0.1:${port}/api/v1/business/auth/token`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiKey, apiSecret }),
      });
      expect(token.status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      // The sandbox business is verified, and its /v1 test key is printed with the credentials.
      const v1Key = /\/v1 key:\s+(tessera_test_sk_\S+)/.exec(first.output())?.[1];
      expect(v1Key).toBeDefined();
      expect((await fetch(`http://127.0.0.1:${port}/v1/payments`, { headers: { authorization: `Bearer ${v1Key}` } })).status).toBe(200);

      // Structured request logs carry the request id and never a credential.
      const readyAt = first.output().indexOf('Ready on');
      const wallets = await fetch(`http://127.0.0.1:${port}/api/v1/business/wallets`, {
        headers: { 'x-api-key': apiKey!, 'x-request-id': 'log-check-1' },
      });
      expect(wallets.headers.get('x-request-id')).toBe('log-check-1');
      // A hosted page's capability token stays out of the logs, and so does a card number posted to it.
      const session = await fetch(`http://127.0.0.1:${port}/api/v1/business/checkout/session`, {
        method: 'POST', headers: { 'x-api-key': apiKey!, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 5, currency: 'usd', customerEmail: 'log@example.com', successUrl: 'https://example.com/done' }),
      });
      const checkoutUrl: string = ((await session.json()) as { data: { checkoutUrl: string } }).data.checkoutUrl;
      const checkoutToken = new URL(checkoutUrl).pathname.split('/').pop()!;
      const hostedPath = `http://127.0.0.1:${port}/checkout/${checkoutToken}`;
      expect((await fetch(hostedPath)).status).toBe(200);
      await fetch(hostedPath, {
        method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ number: '4000000000000002', expiryMonth: '12', expiryYear: '2031', cvv: '123' }).toString(),
      });
      await first.waitFor(/"method":"POST","url":"\/checkout\/\[redacted\]"[^\n]*\n(?:[^\n]*\n)*?[^\n]*"msg":"request completed"/);
      const requestLogs = first.output().slice(readyAt);
      expect(requestLogs).toMatch(/"reqId":"log-check-1"/);
      expect(requestLogs).not.toContain(apiKey!);
      expect(requestLogs).not.toContain(apiSecret!);
      expect(requestLogs).not.toContain('"accessToken"');
      expect(requestLogs).toContain('/checkout/[redacted]');
      expect(requestLogs).not.toContain(checkoutToken);
      expect(requestLogs).not.toContain('4000000000000002');

      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect(first.output()).toMatch(/Stopped/);
      expect(await isListening(port)).toBe(false);

      const second = spawnTs(MAIN, [], { ...env, PORT: String(port) });
      await second.waitFor(/Ready on/);
      expect(second.output()).not.toMatch(/apiKey:/);
      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await dropTestDatabase(databaseUrl);
    }
  }, spawnBudget(2));

  test('without DATABASE_URL: starts the embedded PostgreSQL in the data directory and stops it on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-embedded-'));
    const systemDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-system-'));
    fs.chmodSync(systemDir, 0o755);
    const [port, pgPort] = [await freePort(), await freePort()];
    try {
      const server = spawnTs(MAIN, [], {
        DATABASE_URL: undefined, TESSERA_DATA_DIR: dataDir, TESSERA_SYSTEM_DIR: systemDir, PORT: String(port), EMBEDDED_PG_PORT: String(pgPort),
      });
      await server.waitFor(/Ready on/);
      const clusterDir = /Started embedded PostgreSQL \(data in (\S+), port (\d+)\)/.exec(server.output())![1];
      expect(fs.existsSync(path.join(clusterDir, 'PG_VERSION'))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'secrets.json'))).toBe(true);
      const health = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(health.status).toBe(200);
      server.child.kill('SIGTERM');
      expect({ exitCode: await server.exited, output: server.output() }).toEqual({ exitCode: 0, output: expect.stringContaining('Stopped') });
      expect(fs.existsSync(path.join(clusterDir, 'postmaster.pid'))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(systemDir, { recursive: true, force: true });
    }
  }, spawnBudget(2));
});
