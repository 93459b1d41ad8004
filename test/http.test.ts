import http from 'node:http';
import Fastify from 'fastify';
import { registerAliases } from '../src/rest/shared/aliases';
import { ApiResponse, TestMerchant, TestServer, startTestServer } from './support/harness';
import { card, chargingMerchant } from './support/payments';

/** Cross-cutting HTTP behaviour (design section 5; interface document, Errors and Limits). */

const FUND = '/api/v1/business/sandbox/wallets/fund';

const envelope = (code: string, statusCode: number) => ({
  success: false,
  error: expect.objectContaining({ code, message: expect.any(String), statusCode }),
});

/** No stack trace, file path or internal error class anywhere in the raw body. */
function expectNoStackTrace(response: ApiResponse) {
  const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
  expect(text).not.toMatch(/\bat [\w.<>]+ \(|\.ts:\d+|\.js:\d+|node_modules|stack/i);
}

/** A GET sent from a chosen loopback address, i.e. as another client machine would. */
function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    http
      .get(url, { localAddress, headers }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: response.headers['content-type']?.startsWith('application/json') ? JSON.parse(text) : text,
          }),
        );
      })
      .on('error', reject);
  });
}

async function usdBalance(server: TestServer, merchant: TestMerchant): Promise<string> {
  const response = await server.request('GET', '/api/v1/business/wallets', {
    headers: { 'x-api-key': merchant.apiKey },
  });
  const usd = response.body.data.items.find((wallet: { currency: string }) => wallet.currency === 'usd');
  return usd.balanceMinor;
}

async function journalTransactionCount(server: TestServer, businessId: string): Promise<number> {
  const [row] = await server.runtime.dataSource.query(
    'SELECT count(*)::int AS count FROM journal_transactions WHERE business_id = $1',
    [businessId],
  );
  return row.count;
}

describe('HTTP errors leave in the error envelope, never with a stack trace', () => {
  let server: TestServer;
  let merchant: TestMerchant;

  beforeAll(async () => {
    server = await startTestServer({ bodyLimitBytes: 1024 }, (app) => {
      app.get('/api/v1/test-only/boom', async () => {
        throw new Error('database password is hunter2 at /srv/app/secret.ts:42');
      });
      app.post('/api/v1/test-only/boom', async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'id')");
      });
      app.get('/api/v1/test-only/parse', async () => JSON.parse('{"stored": corrupted'));
      app.get('/api/v1/test-only/forbidden', async () => {
        throw Object.assign(new Error('Not allowed here'), { statusCode: 403 });
      });
      app.post(
        '/api/v1/test-only/schema',
        {
          schema: {
            body: {
              type: 'object',
              required: ['name'],
              properties: { name: { type: 'string' }, age: { type: 'integer' } },
            },
          },
        },
        async () => ({ success: true, data: null }),
      );
    });
    merchant = await server.signUp();
  });
  afterAll(async () => server.close());

  const auth = () => ({ 'x-api-key': merchant.apiKey });

  test('an unknown route answers 404 NOT_FOUND', async () => {
    const response = await server.request('GET', '/api/v1/no-such-thing', { headers: auth() });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(envelope('NOT_FOUND', 404));
    expectNoStackTrace(response);
  });

  test('an unknown route answers 404 for POST too', async () => {
    const response = await server.request('POST', '/api/v1/no-such-thing', { body: {}, headers: auth() });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(envelope('NOT_FOUND', 404));
  });

  test('malformed JSON answers 400 BAD_REQUEST and writes nothing', async () => {
    const before = await usdBalance(server, merchant);
    const response = await server.request('POST', FUND, {
      rawBody: '{"currency": "USD", "amount": "10.00"',
      headers: { ...auth(), 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelope('BAD_REQUEST', 400));
    expectNoStackTrace(response);
    expect(await usdBalance(server, merchant)).toBe(before);
  });

  test('an empty body with Content-Type application/json on a route that needs a body is a 400 naming the missing fields', async () => {
    const response = await server.request('POST', FUND, {
      rawBody: '',
      headers: { ...auth(), 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Validation failed',
        statusCode: 400,
        errors: { currency: [expect.stringMatching(/^is required/)], amount: [expect.stringMatching(/^is required/)] },
      },
    });
  });

  test('a POST that takes no body accepts an empty body sent with Content-Type application/json', async () => {
    const other = await server.signUp();
    const response = await server.request('POST', '/api/v1/business/regenerate-api-key', {
      rawBody: '',
      headers: { 'x-api-key': other.apiKey, 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: expect.objectContaining({ apiKey: expect.stringMatching(/^bk_test_/), mode: 'test' }),
    });
  });

  test('JSON that tries to poison a prototype is still refused with 400', async () => {
    const response = await server.request('POST', FUND, {
      rawBody: '{"currency":"usd","amount":"1.00","__proto__":{"admin":true}}',
      headers: { ...auth(), 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelope('BAD_REQUEST', 400));
  });

  test.each(['text/plain', 'application/xml', 'application/x-www-form-urlencoded'])(
    'a POST with Content-Type %s answers 415 UNSUPPORTED_MEDIA_TYPE and writes nothing',
    async (contentType) => {
      const before = await usdBalance(server, merchant);
      const response = await server.request('POST', FUND, {
        rawBody:
          contentType === 'application/xml'
            ? '<fund><currency>USD</currency><amount>10</amount></fund>'
            : 'currency=USD&amount=10',
        headers: { ...auth(), 'content-type': contentType },
      });
      expect(response.status).toBe(415);
      expect(response.body).toEqual(envelope('UNSUPPORTED_MEDIA_TYPE', 415));
      expectNoStackTrace(response);
      expect(await usdBalance(server, merchant)).toBe(before);
    },
  );

  test('a body over the limit answers 413 PAYLOAD_TOO_LARGE and writes nothing', async () => {
    const before = await usdBalance(server, merchant);
    const response = await server.request('POST', FUND, {
      body: { currency: 'USD', amount: '10.00', padding: 'x'.repeat(2048) },
      headers: auth(),
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual(envelope('PAYLOAD_TOO_LARGE', 413));
    expectNoStackTrace(response);
    expect(await usdBalance(server, merchant)).toBe(before);
  });

  test('an oversized GraphQL request answers 413 in the envelope too', async () => {
    const response = await server.graphql(`query { __typename } # ${'x'.repeat(2048)}`);
    expect(response.status).toBe(413);
    expect(response.body).toEqual(envelope('PAYLOAD_TOO_LARGE', 413));
  });

  test('an unexpected exception answers 500 INTERNAL_ERROR with a generic message', async () => {
    const response = await server.request('GET', '/api/v1/test-only/boom', { headers: auth() });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      success: false,
      error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred', statusCode: 500 },
    });
    expect(JSON.stringify(response.body)).not.toMatch(/hunter2|secret\.ts/);
    expectNoStackTrace(response);
  });

  test('an unexpected TypeError on a POST answers 500 without its message', async () => {
    const response = await server.request('POST', '/api/v1/test-only/boom', { body: {}, headers: auth() });
    expect(response.status).toBe(500);
    expect(response.body).toEqual(envelope('INTERNAL_ERROR', 500));
    expect(JSON.stringify(response.body)).not.toMatch(/Cannot read properties/);
  });

  test('a validation failure answers 400 VALIDATION_ERROR with per-field errors and writes nothing', async () => {
    const before = await usdBalance(server, merchant);
    const transactions = await journalTransactionCount(server, merchant.businessId);
    const response = await server.request('POST', FUND, { body: { amount: '10.00' }, headers: auth() });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
        statusCode: 400,
        errors: { currency: [expect.any(String)] },
      },
    });
    expectNoStackTrace(response);
    expect(await usdBalance(server, merchant)).toBe(before);
    expect(await journalTransactionCount(server, merchant.businessId)).toBe(transactions);
  });

  test('a SyntaxError thrown by our own code is a 500, not a client error', async () => {
    const response = await server.request('GET', '/api/v1/test-only/parse', { headers: auth() });
    expect(response.status).toBe(500);
    expect(response.body).toEqual(envelope('INTERNAL_ERROR', 500));
    expectNoStackTrace(response);
  });

  test('an error that declares a client status keeps it (403 FORBIDDEN)', async () => {
    const response = await server.request('GET', '/api/v1/test-only/forbidden', { headers: auth() });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      success: false,
      error: { code: 'FORBIDDEN', message: 'Not allowed here', statusCode: 403 },
    });
  });

  test('a route-schema failure answers 400 VALIDATION_ERROR with per-field errors', async () => {
    const response = await server.request('POST', '/api/v1/test-only/schema', {
      body: { age: 'old' },
      headers: auth(),
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
        statusCode: 400,
        errors: { name: [expect.any(String)] },
      },
    });
    const typed = await server.request('POST', '/api/v1/test-only/schema', {
      body: { name: 'Ada', age: 'old' },
      headers: auth(),
    });
    expect(typed.body.error.errors).toEqual({ age: [expect.stringMatching(/integer/)] });
  });

  test('a missing credential answers 401 UNAUTHORIZED in the envelope', async () => {
    const response = await server.request('POST', FUND, { body: { currency: 'USD', amount: '1.00' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(envelope('UNAUTHORIZED', 401));
  });

  test('a well-formed request still succeeds under the small body limit', async () => {
    const before = BigInt(await usdBalance(server, merchant));
    const response = await server.request('POST', FUND, {
      body: { currency: 'USD', amount: '10.00' },
      headers: auth(),
    });
    expect(response.status).toBe(201);
    expect(BigInt(await usdBalance(server, merchant))).toBe(before + 1000n);
  });
});

describe('Paths the interface document writes without /api/v1 answer there too', () => {
  let server: TestServer;
  let merchant: TestMerchant;

  beforeAll(async () => {
    server = await startTestServer();
    merchant = await chargingMerchant(server);
  });
  afterAll(async () => server.close());

  const auth = () => ({ 'x-api-key': merchant.apiKey });
  const chargeBody = (amount: number) => ({ amount, currency: 'usd', card: card(), email: 'payer@example.com' });

  test('POST /business/payment/charge is the documented charge: same envelope, same 60-second de-duplication', async () => {
    const unprefixed = await server.request('POST', '/business/payment/charge', {
      body: chargeBody(12.5),
      headers: auth(),
    });
    expect(unprefixed.status).toBe(201);
    expect(unprefixed.body).toEqual({
      success: true,
      data: expect.objectContaining({ object: 'payment', status: 'COMPLETED', amount: '12.50', currency: 'usd' }),
    });
    const prefixed = await server.request('POST', '/api/v1/business/payment/charge', {
      body: chargeBody(12.5),
      headers: auth(),
    });
    expect(prefixed.body.data.paymentId).toBe(unprefixed.body.data.paymentId);
  });

  test('POST /business/payment/charge needs the same credential and validates the same way', async () => {
    const anonymous = await server.request('POST', '/business/payment/charge', { body: chargeBody(1) });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(envelope('UNAUTHORIZED', 401));
    const invalid = await server.request('POST', '/business/payment/charge', { body: { amount: 1 }, headers: auth() });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: expect.objectContaining({ currency: expect.any(Array) }),
    });
  });

  test('an Idempotency-Key used on /business/payment/charge replays on /api/v1/business/payment/charge: one operation', async () => {
    const headers = { ...auth(), 'idempotency-key': 'alias-charge-1' };
    const first = await server.request('POST', '/business/payment/charge', { body: chargeBody(7), headers });
    const again = await server.request('POST', '/api/v1/business/payment/charge', { body: chargeBody(7), headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const different = await server.request('POST', '/business/payment/charge', { body: chargeBody(8), headers });
    expect(different.status).toBe(409);
    expect(different.body).toEqual(envelope('IDEMPOTENCY_KEY_REUSED', 409));
  });

  test.each(['/business/checkout/session', '/business/payment/session'])(
    'POST %s is the documented checkout session creation: same envelope, validation and idempotency',
    async (path) => {
      const body = { amount: 25.5, currency: 'usd', successUrl: 'https://shop.example.com/thanks' };
      const headers = { ...auth(), 'idempotency-key': `alias-session-${path}` };
      const unprefixed = await server.request('POST', path, { body, headers });
      expect(unprefixed.status).toBe(201);
      expect(unprefixed.body).toEqual({
        success: true,
        data: expect.objectContaining({
          object: 'checkout_session',
          status: 'OPEN',
          amount: '25.50',
          checkoutUrl: expect.any(String),
        }),
      });
      const again = await server.request('POST', `/api/v1${path}`, { body, headers });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(unprefixed.body);
      const invalid = await server.request('POST', path, {
        body: { amount: 0, currency: 'usd', successUrl: 'https://a.example' },
        headers: auth(),
      });
      expect(invalid.status).toBe(400);
      expect(invalid.body.error).toMatchObject({ code: 'VALIDATION_ERROR', errors: { amount: expect.any(Array) } });
      expect((await server.request('POST', path, { body })).status).toBe(401);
    },
  );

  test('PUT and GET /business/config set and read the webhook URL like /api/v1/business/config', async () => {
    const put = await server.request('PUT', '/business/config', {
      body: { webhookUrl: 'http://localhost:9000/hooks' },
      headers: auth(),
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      success: true,
      data: expect.objectContaining({ businessId: merchant.businessId, webhookUrl: 'http://localhost:9000/hooks' }),
    });
    const prefixed = await server.request('GET', '/api/v1/business/config', { headers: auth() });
    const unprefixed = await server.request('GET', '/business/config', { headers: auth() });
    expect(unprefixed.status).toBe(200);
    expect(unprefixed.body).toEqual(prefixed.body);
    const refused = await server.request('PUT', '/business/config', {
      body: { webhookUrl: 'ftp://example.com' },
      headers: auth(),
    });
    expect(refused.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: { webhookUrl: ['must be an absolute http(s) URL'] },
    });
  });

  test('the unprefixed paths share the rate-limit budget of the caller', async () => {
    const first = await server.request('GET', '/api/v1/business/config', { headers: auth() });
    const second = await server.request('GET', '/business/config', { headers: auth() });
    expect(second.headers.get('x-ratelimit-limit')).toBe(first.headers.get('x-ratelimit-limit'));
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
      Number(first.headers.get('x-ratelimit-remaining')) - 1,
    );
  });

  test('only the documented paths answer unprefixed; a 404 for another names its /api/v1 path', async () => {
    const wallets = await server.request('GET', '/business/wallets', { headers: auth() });
    expect(wallets.status).toBe(404);
    expect(wallets.body).toEqual({
      success: false,
      error: {
        code: 'NOT_FOUND',
        message: 'No route for GET /business/wallets; did you mean /api/v1/business/wallets?',
        statusCode: 404,
      },
    });
    const payment = await server.request('GET', '/business/payments/5b1f0c9e-0000-4000-8000-000000000000', {
      headers: auth(),
    });
    expect(payment.body.error.message).toMatch(
      /did you mean \/api\/v1\/business\/payments\/5b1f0c9e-0000-4000-8000-000000000000\?$/,
    );
    const nowhere = await server.request('GET', '/business/nowhere', { headers: auth() });
    expect(nowhere.body.error.message).toBe('No route for GET /business/nowhere');
  });

  test('an alias is one line: a parametric alias serves its canonical route, and one without a route stops the start', async () => {
    const app = Fastify();
    registerAliases(app, [
      { method: 'GET', path: '/v1/business/payouts/:id', canonical: '/api/v1/business/payouts/:id' },
    ]);
    app.get<{ Params: { id: string } }>('/api/v1/business/payouts/:id', async (request) => ({
      id: request.params.id,
      route: request.routeOptions.url,
    }));
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/v1/business/payouts/po_1`);
    expect(await response.json()).toEqual({ id: 'po_1', route: '/v1/business/payouts/:id' });
    await app.close();

    const broken = Fastify();
    registerAliases(broken, [
      { method: 'GET', path: '/business/collections/:id', canonical: '/api/v1/business/collections/:id' },
    ]);
    await expect(broken.ready()).rejects.toThrow(/GET \/business\/collections\/:id/);
  });
});

describe('A wrong method on a known path is 405 with Allow; unknown paths stay 404', () => {
  let server: TestServer;
  let merchant: TestMerchant;

  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.signUp();
  });
  afterAll(async () => server.close());

  const auth = () => ({ 'x-api-key': merchant.apiKey });

  test.each([
    ['DELETE', '/api/v1/business/wallets', 'GET, HEAD'],
    ['GET', '/api/v1/business/payment/charge', 'POST'],
    ['POST', '/api/v1/business/config', 'GET, HEAD, PUT'],
    ['PUT', '/api/v1/webhook-endpoints/5b1f0c9e-0000-4000-8000-000000000000', 'DELETE, GET, HEAD, PATCH'],
    ['GET', '/business/payment/charge', 'POST'],
  ])('%s %s answers 405 METHOD_NOT_ALLOWED with Allow: %s', async (method, path, allow) => {
    const response = await server.request(method, path, { headers: auth() });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(response.body).toEqual({
      success: false,
      error: {
        code: 'METHOD_NOT_ALLOWED',
        message: `Method ${method} is not allowed for ${path}; allowed: ${allow}`,
        statusCode: 405,
      },
    });
  });

  test('a 405 is answered without a credential too, and a HEAD gets the status and Allow without a body', async () => {
    const anonymous = await server.request('DELETE', '/api/v1/business/wallets');
    expect(anonymous.status).toBe(405);
    const head = await server.request('HEAD', '/api/v1/business/payment/charge', { headers: auth() });
    expect([head.status, head.headers.get('allow'), head.body]).toEqual([405, 'POST', null]);
  });

  test('HEAD on a GET route still answers like the GET, without a body', async () => {
    const head = await server.request('HEAD', '/api/v1/business/wallets', { headers: auth() });
    expect([head.status, head.body]).toEqual([200, null]);
  });

  test('an unknown path stays 404 NOT_FOUND', async () => {
    const response = await server.request('DELETE', '/api/v1/business/nowhere', { headers: auth() });
    expect(response.status).toBe(404);
    expect(response.headers.get('allow')).toBeNull();
    expect(response.body).toEqual({
      success: false,
      error: { code: 'NOT_FOUND', message: 'No route for DELETE /api/v1/business/nowhere', statusCode: 404 },
    });
  });
});

describe('X-Request-Id', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  test('a valid X-Request-Id is echoed', async () => {
    const response = await server.request('GET', '/healthz', { headers: { 'x-request-id': 'req_abc-123.456:7' } });
    expect(response.headers.get('x-request-id')).toBe('req_abc-123.456:7');
  });

  test('a request id is generated when none is sent', async () => {
    const first = await server.request('GET', '/healthz');
    const second = await server.request('GET', '/healthz');
    expect(first.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
  });

  test.each([
    ['containing spaces and angle brackets', 'hello <script>'],
    ['longer than 128 characters', 'a'.repeat(129)],
  ])('an X-Request-Id %s is replaced by a generated one', async (_label, value) => {
    const response = await server.request('GET', '/healthz', { headers: { 'x-request-id': value } });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('error responses carry the request id too', async () => {
    const response = await server.request('GET', '/nowhere', { headers: { 'x-request-id': 'trace-404' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toBe('trace-404');
  });
});

describe('Health and metrics', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  test('/healthz answers 200 with the version', async () => {
    const response = await server.request('GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  test('/readyz answers 200 when the database is reachable', async () => {
    const response = await server.request('GET', '/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready' });
  });

  test('/metrics is Prometheus text with request counts by route and status', async () => {
    await server.request('GET', '/healthz');
    await server.request('GET', '/api/v1/unknown-route');
    const response = await server.request('GET', '/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = response.body as string;
    expect(text).toContain('# TYPE tessera_http_requests_total counter');
    expect(text).toMatch(/tessera_http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/);
    expect(text).toMatch(/tessera_http_requests_total\{method="GET",route="unmatched",status="404"\} \d+/);
    expect(text).toContain('tessera_http_request_duration_seconds_bucket');
    expect(text).toContain('tessera_process_cpu_seconds_total');
  });
});

describe('Rate limiting (X-RateLimit-Limit, -Remaining, -Reset; 429 in the envelope)', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  let other: TestMerchant;
  const windowMs = 60_000;

  beforeAll(async () => {
    server = await startTestServer({ rateLimitMax: 3, rateLimitWindowMs: windowMs });
    // Made as the operator CLI does: a dashboard sign-up's requests would spend the budget under test.
    merchant = await server.createMerchant();
    other = await server.createMerchant();
  });

  afterAll(async () => server.close());

  test('the fourth request in a window answers 429 RATE_LIMITED with the limit headers', async () => {
    const headers = { 'x-api-key': merchant.apiKey };
    const responses: ApiResponse[] = [];
    for (let i = 0; i < 3; i += 1) responses.push(await server.request('GET', '/api/v1/business/wallets', { headers }));
    const nowSeconds = Math.floor(Date.now() / 1000);

    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(responses.map((response) => response.headers.get('x-ratelimit-limit'))).toEqual(['3', '3', '3']);
    expect(responses.map((response) => response.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0']);
    for (const response of responses) {
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      expect(Number.isInteger(reset)).toBe(true);
      expect(reset).toBeGreaterThanOrEqual(nowSeconds);
      expect(reset).toBeLessThanOrEqual(nowSeconds + windowMs / 1000 + 1);
    }

    const limited = await server.request('GET', '/api/v1/business/wallets', { headers });
    // Read after the answer: on a loaded machine the fourth request may come seconds after the third.
    const answeredSeconds = Math.ceil(Date.now() / 1000);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(envelope('RATE_LIMITED', 429));
    expect(limited.headers.get('x-ratelimit-limit')).toBe('3');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(limited.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(nowSeconds);
    expect(reset).toBeLessThanOrEqual(answeredSeconds + windowMs / 1000 + 1);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(windowMs / 1000);
  });

  test('a bearer token exchanged for the same API key shares its budget', async () => {
    const { accessToken } = await server.runtime.core.identity.auth.exchangeToken(
      server.runtime.core.anonymousContext(),
      {
        apiKey: merchant.apiKey,
        apiSecret: merchant.apiSecret,
      },
    );
    const response = await server.request('GET', '/api/v1/business/wallets', {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(response.status).toBe(429);
  });

  test('limits are counted per credential: another API key still gets through', async () => {
    const response = await server.request('GET', '/api/v1/business/wallets', {
      headers: { 'x-api-key': other.apiKey },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  test('GraphQL is limited too, in the same envelope', async () => {
    const headers = { 'x-api-key': merchant.apiKey };
    const response = await server.graphql('{ wallets { id } }', undefined, headers);
    expect(response.status).toBe(429);
    expect(response.body).toEqual(envelope('RATE_LIMITED', 429));
  });

  test('a new made-up API key per request does not buy a new budget: refused credentials count per client', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await getFrom('127.0.0.5', `${server.baseUrl}/api/v1/business/wallets`, {
        'x-api-key': `bk_test_made_up_${i}`,
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  test('unknown routes are limited too', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push((await getFrom('127.0.0.6', `${server.baseUrl}/api/v1/nowhere-${i}`)).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
  });

  test('the hosted pages take no credential: a payer spends the budget of their address, and the 429 is a page', async () => {
    const answers = [];
    for (let i = 0; i < 4; i += 1)
      answers.push(await getFrom('127.0.0.7', `${server.baseUrl}/checkout/no-such-token-${i}`));
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 429]);
    expect(answers[3].headers['content-type']).toMatch(/^text\/html/);
    expect(answers[3].headers['retry-after']).toMatch(/^\d+$/);
    // Another address still gets its page.
    expect((await getFrom('127.0.0.8', `${server.baseUrl}/checkout/no-such-token-4`)).status).toBe(404);
  });

  test('health, readiness and metrics are never limited', async () => {
    for (let i = 0; i < 6; i += 1) {
      for (const path of ['/healthz', '/readyz', '/metrics']) {
        const response = await server.request('GET', path);
        expect(response.status).toBe(200);
        expect(response.headers.get('x-ratelimit-limit')).toBeNull();
      }
    }
  });
});
