import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, dropTestDatabase } from './support/harness';
import { freePort, spawnBudget, spawnTs } from './support/process';

const MAIN = 'src/main.ts';

/** What a start says about its database, in order: its lines up to the credentials or Ready. */
const progressLines = (output: string) =>
  output
    .split('\n')
    .map((line) => /^\[tessera\] (.*)$/.exec(line)?.[1])
    .filter((line): line is string => line !== undefined && /PostgreSQL|Migrating/.test(line));

async function isListening(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/healthz`);
    return true;
  } catch {
    return false;
  }
}

describe('npm start (the server process)', () => {
  test(
    'with DATABASE_URL: migrates, prints the sandbox credentials on the first start only, serves, and stops cleanly on SIGTERM',
    async () => {
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
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ apiKey, apiSecret }),
        });
        expect(token.status).toBe(200);
        expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
        // The sandbox business is verified, and its /v1 test key is printed with the credentials.
        const v1Key = /\/v1 key:\s+(tessera_test_sk_\S+)/.exec(first.output())?.[1];
        expect(v1Key).toBeDefined();
        expect(
          (await fetch(`http://127.0.0.1:${port}/v1/payments`, { headers: { authorization: `Bearer ${v1Key}` } }))
            .status,
        ).toBe(200);

        // Structured request logs carry the request id and never a credential.
        const readyAt = first.output().indexOf('Ready on');
        const wallets = await fetch(`http://127.0.0.1:${port}/api/v1/business/wallets`, {
          headers: { 'x-api-key': apiKey!, 'x-request-id': 'log-check-1' },
        });
        expect(wallets.headers.get('x-request-id')).toBe('log-check-1');
        // A hosted page's capability token stays out of the logs, and so does a card number posted to it.
        const session = await fetch(`http://127.0.0.1:${port}/api/v1/business/checkout/session`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey!, 'content-type': 'application/json' },
          body: JSON.stringify({
            amount: 5,
            currency: 'usd',
            customerEmail: 'log@example.com',
            successUrl: 'https://example.com/done',
          }),
        });
        const checkoutUrl: string = ((await session.json()) as { data: { checkoutUrl: string } }).data.checkoutUrl;
        const checkoutToken = new URL(checkoutUrl).pathname.split('/').pop()!;
        const hostedPath = `http://127.0.0.1:${port}/checkout/${checkoutToken}`;
        expect((await fetch(hostedPath)).status).toBe(200);
        await fetch(hostedPath, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            number: '4000000000000002',
            expiryMonth: '12',
            expiryYear: '2031',
            cvv: '123',
          }).toString(),
        });
        await first.waitFor(
          /"method":"POST","url":"\/checkout\/\[redacted\]"[^\n]*\n(?:[^\n]*\n)*?[^\n]*"msg":"request completed"/,
        );
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
    },
    spawnBudget(2),
  );

  test(
    'HOST: loopback by default (localhost: 127.0.0.1, and ::1 where it resolves), every interface with HOST=0.0.0.0; the Ready line names what it listens on',
    async () => {
      // An address of this machine that is not loopback: what another machine on the network would call.
      const outside = Object.values(os.networkInterfaces())
        .flat()
        .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
      const databaseUrl = await createTestDatabase();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-host-'));
      const answers = (host: string, port: number) =>
        fetch(`http://${host}:${port}/healthz`).then(
          (response) => response.status,
          () => 0,
        );
      try {
        for (const host of [undefined, '0.0.0.0']) {
          const port = await freePort();
          const server = spawnTs(MAIN, [], {
            DATABASE_URL: databaseUrl,
            TESSERA_DATA_DIR: dataDir,
            PORT: String(port),
            HOST: host,
          });
          const ready = await server.waitFor(/Ready on .*\n/);
          expect(await answers('127.0.0.1', port)).toBe(200);
          if (host === undefined) {
            expect(ready).toMatch(
              new RegExp(
                `^Ready on http://localhost:${port} \\(listening on 127\\.0\\.0\\.1( and ::1)?; GraphQL at /graphql, REST at /api/v1\\)`,
              ),
            );
            if (outside) expect(await answers(outside, port)).toBe(0);
          } else {
            expect(ready).toMatch(
              new RegExp(
                `^Ready on http://0\\.0\\.0\\.0:${port} \\(listening on every interface \\(0\\.0\\.0\\.0\\); GraphQL`,
              ),
            );
            if (outside) expect(await answers(outside, port)).toBe(200);
          }
          server.child.kill('SIGTERM');
          expect(await server.exited).toBe(0);
        }
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
        await dropTestDatabase(databaseUrl);
      }
    },
    spawnBudget(2),
  );

  test(
    'without DATABASE_URL: starts the embedded PostgreSQL in the data directory and stops it on SIGTERM',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-embedded-'));
      const systemDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-system-'));
      fs.chmodSync(systemDir, 0o755);
      const [port, pgPort] = [await freePort(), await freePort()];
      try {
        const env = {
          DATABASE_URL: undefined,
          TESSERA_DATA_DIR: dataDir,
          TESSERA_SYSTEM_DIR: systemDir,
          PORT: String(port),
          EMBEDDED_PG_PORT: String(pgPort),
        };
        const server = spawnTs(MAIN, [], env);
        await server.waitFor(/Ready on/);
        const clusterDir = /Started embedded PostgreSQL \(data in (\S+), port (\d+)\)/.exec(server.output())![1];
        expect(fs.existsSync(path.join(clusterDir, 'PG_VERSION'))).toBe(true);
        expect(fs.existsSync(path.join(dataDir, 'secrets.json'))).toBe(true);
        // The long steps of a first start each say what is happening before they run.
        expect(progressLines(server.output())).toEqual([
          // As root the server's user gets its own copy of the binaries, once per version (src/db/embedded.ts).
          ...(process.getuid?.() === 0
            ? [
                expect.stringMatching(
                  new RegExp(
                    `^Copying the embedded PostgreSQL binaries to ${systemDir}/postgresql-\\S+ \\(once per version\\)`,
                  ),
                ),
              ]
            : []),
          expect.stringMatching(
            new RegExp(`^Initialising the embedded PostgreSQL \\d+\\.\\S+ \\(first start\\) in ${clusterDir}…$`),
          ),
          `Started embedded PostgreSQL (data in ${clusterDir}, port ${pgPort})`,
          'Migrating…',
        ]);
        const health = await fetch(`http://127.0.0.1:${port}/readyz`);
        expect(health.status).toBe(200);

        // A worker beside it shares the server's PostgreSQL, and says so (it started none).
        const worker = spawnTs('src/cli/index.ts', ['worker'], env);
        await worker.waitFor(/Worker running/);
        const postmaster = Number(fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
        expect(worker.output()).toContain(
          `Connected to the embedded PostgreSQL another Tessera process started (pid ${postmaster}, data in ${clusterDir}, port ${pgPort})`,
        );
        expect(worker.output()).not.toMatch(/Started embedded PostgreSQL|Initialising|Migrating/);
        worker.child.kill('SIGTERM');
        expect(await worker.exited).toBe(0);

        server.child.kill('SIGTERM');
        expect({ exitCode: await server.exited, output: server.output() }).toEqual({
          exitCode: 0,
          output: expect.stringContaining('Stopped'),
        });
        expect(fs.existsSync(path.join(clusterDir, 'postmaster.pid'))).toBe(false);

        // A later start has nothing to initialise or migrate, and says nothing of it.
        const again = spawnTs(MAIN, [], env);
        await again.waitFor(/Ready on/);
        expect(progressLines(again.output())).toEqual([
          `Started embedded PostgreSQL (data in ${clusterDir}, port ${pgPort})`,
        ]);
        again.child.kill('SIGTERM');
        expect(await again.exited).toBe(0);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
        fs.rmSync(systemDir, { recursive: true, force: true });
      }
    },
    spawnBudget(3),
  );
});
