import { Mode } from '../src/domain/shared/modes';
import { TestServer, startTestServer, waitFor } from './support/harness';
import { issueV1Key, paymentBody, v1, v1Merchant } from './support/v1';

/** Small budgets and a short window (V1_RATE_LIMIT_*), so that limits are reached and reset within a test. */
const LIMITS = { windowMs: 1500, liveCreate: 4, liveRead: 6, testCreate: 2, testRead: 3 };

const headersOf = (response: { headers: Headers }) => ({
  limit: Number(response.headers.get('x-ratelimit-limit')),
  remaining: Number(response.headers.get('x-ratelimit-remaining')),
  reset: Number(response.headers.get('x-ratelimit-reset')),
});

describe('/v1 rate limits per key', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ v1RateLimits: LIMITS });
  });
  afterAll(async () => {
    await server.close();
  });

  test('every answer carries X-RateLimit-Limit, -Remaining and -Reset (Unix seconds), errors included', async () => {
    const merchant = await v1Merchant(server);
    const call = v1(server, merchant.testKey);
    const answers = [
      await call('GET', '/v1/payments'),
      await call('GET', '/v1/nothing'),
      await call('POST', '/v1/payments', { amount: 0, currency: 'usd' }),
      await v1(server, 'tessera_test_sk_nope')('GET', '/v1/payments'),
      await server.request('POST', '/v1/payments', {
        rawBody: '{',
        headers: { authorization: `Bearer ${merchant.testKey}`, 'content-type': 'application/json' },
      }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 422, 401, 400]);
    const nowSeconds = Date.now() / 1000;
    for (const answer of answers) {
      const { limit, remaining, reset } = headersOf(answer);
      expect(limit).toBeGreaterThan(0);
      expect(remaining).toBeGreaterThanOrEqual(0);
      expect(reset).toBeGreaterThan(nowSeconds - 1);
      expect(reset).toBeLessThan(nowSeconds + 60);
    }
  });

  test('a test key gets its read budget; the next read answers 429 rate_limited; the window resets it', async () => {
    const merchant = await v1Merchant(server);
    const call = v1(server, merchant.testKey);
    const seen = [];
    for (let index = 0; index < LIMITS.testRead; index += 1) seen.push(await call('GET', '/v1/payments'));
    expect(seen.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(seen.map((answer) => headersOf(answer).remaining)).toEqual([2, 1, 0]);
    expect(headersOf(seen[0]).limit).toBe(LIMITS.testRead);
    const limited = await call('GET', '/v1/payments');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Object.keys(limited.body)).toEqual(['error']);
    expect(headersOf(limited)).toMatchObject({ limit: LIMITS.testRead, remaining: 0 });
    const reset = await waitFor(
      () => call('GET', '/v1/payments'),
      (answer) => answer.status === 200,
      undefined,
      100,
    );
    expect(reset.status).toBe(200);
  });

  test('payment creation has its own, smaller budget: reads still go through when creation is exhausted', async () => {
    const merchant = await v1Merchant(server);
    const call = v1(server, merchant.testKey);
    const created = [
      await call('POST', '/v1/payments', paymentBody()),
      await call('POST', '/v1/payments', paymentBody()),
    ];
    expect(created.map((answer) => answer.status)).toEqual([201, 201]);
    expect(headersOf(created[0]).limit).toBe(LIMITS.testCreate);
    const refused = await call('POST', '/v1/payments', paymentBody());
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    const [count] = await server.runtime.dataSource.query(
      'SELECT count(*)::int AS n FROM v1_payments WHERE business_id = $1',
      [merchant.businessId],
    );
    expect(count.n).toBe(2);
    const read = await call('GET', '/v1/payments');
    expect(read.status).toBe(200);
    expect(headersOf(read).limit).toBe(LIMITS.testRead);
  });

  test('live keys have their own limits, and each key its own budget', async () => {
    const merchant = await v1Merchant(server);
    const live = await issueV1Key(server, merchant.businessId, Mode.LIVE);
    const other = await v1Merchant(server);
    for (let index = 0; index < LIMITS.testRead; index += 1) await v1(server, merchant.testKey)('GET', '/v1/payments');
    expect((await v1(server, merchant.testKey)('GET', '/v1/payments')).status).toBe(429);
    const liveRead = await v1(server, live)('GET', '/v1/payments');
    expect(liveRead.status).toBe(200);
    expect(headersOf(liveRead)).toMatchObject({ limit: LIMITS.liveRead, remaining: LIMITS.liveRead - 1 });
    expect((await v1(server, other.testKey)('GET', '/v1/payments')).status).toBe(200);
  });
});
