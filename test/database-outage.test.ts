import { readFile } from 'node:fs/promises';
import { Client } from 'pg';
import { isDatabaseUnreachable } from '../src/db/outage';
import { ExecutionResult } from 'graphql';
import {
  TestServer,
  capturedLog,
  createTestDatabase,
  dropTestDatabase,
  startTestServer,
  waitFor,
  waitUntil,
} from './support/harness';
import { TcpProxy, startTcpProxy } from './support/tcp-proxy';
import { v1, v1Merchant } from './support/v1';

/**
 * While the database cannot be reached (issue 26, finding 3), every face answers 503
 * SERVICE_UNAVAILABLE with Retry-After, never 500 INTERNAL_ERROR; the log says so once (and in a
 * summary per interval), not with a stack per request; and the service recovers by itself when the
 * database is back. The server reaches PostgreSQL through a TCP proxy the test cuts and restores.
 */
describe('a database outage', () => {
  let realDatabaseUrl: string;
  let proxy: TcpProxy;
  let server: TestServer;
  const { logStream, lines } = capturedLog();

  beforeAll(async () => {
    realDatabaseUrl = await createTestDatabase();
    proxy = await startTcpProxy(realDatabaseUrl);
    server = await startTestServer({ databaseUrl: proxy.urlFor(realDatabaseUrl), logLevel: 'info' }, undefined, {
      logStream,
    });
  });
  afterAll(async () => {
    await proxy.restore().catch(() => undefined);
    await server.close();
    await proxy.close();
    await dropTestDatabase(realDatabaseUrl);
  });

  const socketQuery = (socket: ReturnType<TestServer['socket']>, query: string) =>
    new Promise<ExecutionResult | readonly unknown[]>((resolve) => {
      let result: ExecutionResult | null = null;
      socket.client.subscribe(
        { query },
        {
          next: (value) => {
            result = value as ExecutionResult;
          },
          error: (errors) => resolve(errors as readonly unknown[]),
          complete: () => resolve(result!),
        },
      );
    });

  test('answers 503 SERVICE_UNAVAILABLE with Retry-After on every face, logs the outage once, and recovers without a manual step', async () => {
    const merchant = await server.createMerchant();
    const v1merchant = await v1Merchant(server);
    const apiKey = { 'x-api-key': merchant.apiKey };
    const socket = server.socket({ apiKey: merchant.apiKey });
    await socket.connected;
    expect((await server.request('GET', '/api/v1/business/wallets', { headers: apiKey })).status).toBe(200);

    await proxy.cut();
    const rounds = 4;
    for (let round = 0; round < rounds; round += 1) {
      const rest = await server.request('GET', '/api/v1/business/wallets', { headers: apiKey });
      expect(rest.status).toBe(503);
      expect(rest.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(rest.body).toEqual({
        success: false,
        error: { code: 'SERVICE_UNAVAILABLE', statusCode: 503, message: expect.any(String) },
      });

      const keyed = await server.request('POST', '/api/v1/business/payouts/quote', {
        headers: { ...apiKey, 'idempotency-key': `outage-${round}` },
        body: { amount: '10.00', currency: 'USD', destinationCurrency: 'NGN', country: 'NG', rail: 'LOCAL_BANK' },
      });
      expect(keyed.status).toBe(503);
      expect(keyed.headers.get('retry-after')).toMatch(/^\d+$/);

      const alternate = await v1(server, v1merchant.testKey)('GET', '/v1/payments');
      expect(alternate.status).toBe(503);
      expect(alternate.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(alternate.body).toEqual({ error: { code: 'service_unavailable', message: expect.any(String) } });

      const graphql = await server.graphql('{ business { id } }', {}, apiKey);
      expect(graphql.status).toBe(503);
      expect(graphql.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(graphql.body.errors).toEqual([
        expect.objectContaining({
          extensions: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', statusCode: 503 }),
        }),
      ]);

      const hosted = await server.request('GET', `/checkout/cs_test_${'x'.repeat(43)}`);
      expect(hosted.status).toBe(503);
      expect(hosted.headers.get('retry-after')).toMatch(/^\d+$/);

      const ready = await server.request('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toMatch(/^\d+$/);

      const overSocket = await socketQuery(socket, '{ business { id } }');
      const socketErrors = Array.isArray(overSocket) ? overSocket : (overSocket as ExecutionResult).errors;
      expect(socketErrors).toEqual([
        expect.objectContaining({ extensions: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }) }),
      ]);
    }

    // One line when the outage starts, none per request, no stack.
    expect(lines.filter((line) => line.msg === 'database unreachable')).toHaveLength(1);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(lines.filter((line) => line.err?.stack)).toEqual([]);

    await proxy.restore();
    const back = await waitFor(
      () => server.request('GET', '/api/v1/business/wallets', { headers: apiKey }),
      (response) => response.status === 200,
    );
    expect(back.status).toBe(200);
    expect((await server.graphql('{ business { id } }', {}, apiKey)).body.data.business.id).toBe(merchant.businessId);
    expect((await server.request('GET', '/readyz')).status).toBe(200);
    await waitUntil(() => lines.some((line) => line.msg === 'database reachable again'), 'the recovery line');
    const recovered = lines.find((line) => line.msg === 'database reachable again')!;
    expect(recovered.refused).toBeGreaterThanOrEqual(rounds * 6);
    expect(lines.filter((line) => line.msg === 'database unreachable')).toHaveLength(1);
  });
});

describe('what counts as the database being unreachable', () => {
  test('a Unix socket that is not there (the embedded PostgreSQL stopped) is an outage; a missing file elsewhere is not', async () => {
    const client = new Client({ host: '/nonexistent-tessera-socket-dir', database: 'postgres' });
    const refused = await client.connect().then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: 'ENOENT', syscall: 'connect' });
    expect(isDatabaseUnreachable(refused)).toBe(true);
    const missingFile = await readFile('/nonexistent-tessera-file').then(
      () => null,
      (error: unknown) => error,
    );
    expect(isDatabaseUnreachable(missingFile)).toBe(false);
  });
});
