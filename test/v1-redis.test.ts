import crypto from 'node:crypto';
import net from 'node:net';
import { TestServer, startTestServer } from './support/harness';
import { v1, v1Merchant } from './support/v1';

const REDIS_URL = process.env.TESSERA_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** This run's own keys: runs sharing the Redis never count each other's requests. */
const PREFIX = `tessera-test-${crypto.randomBytes(6).toString('hex')}:`;

function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(3000);
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const LIMITS = { windowMs: 60_000, liveCreate: 4, liveRead: 6, testCreate: 2, testRead: 3 };

describe('/v1 rate limits with REDIS_URL: one budget per key across API processes', () => {
  let available = false;
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    available = await redisAnswers(REDIS_URL);
    if (!available) {
      console.warn(
        `Skipping the /v1 Redis test: no Redis answers at ${REDIS_URL} (set TESSERA_TEST_REDIS_URL to run it)`,
      );
      return;
    }
    first = await startTestServer({ redisUrl: REDIS_URL, redisKeyPrefix: PREFIX, v1RateLimits: LIMITS });
    second = await startTestServer({
      redisUrl: REDIS_URL,
      redisKeyPrefix: PREFIX,
      v1RateLimits: LIMITS,
      databaseUrl: first.databaseUrl,
    });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  test('reads of one key on two processes spend one budget', async () => {
    if (!available) return;
    const merchant = await v1Merchant(first);
    const statuses: number[] = [];
    for (const server of [first, second, first, second])
      statuses.push((await v1(server, merchant.testKey)('GET', '/v1/payments')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
