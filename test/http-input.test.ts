import net from 'node:net';
import { Writable } from 'node:stream';
import { TestMerchant, TestServer, startTestServer } from './support/harness';

/**
 * Findings 12, 13 and 14 of the security probe, REST side: text PostgreSQL cannot store and dates
 * it cannot hold are a 400 naming the field; the framework's own refusals leave in the error
 * envelope; database failures are logged without the values of the statement.
 */

const envelope = (code: string, statusCode: number) => ({
  success: false,
  error: expect.objectContaining({ code, message: expect.any(String), statusCode }),
});

/** Sends raw bytes and returns the raw answer (status line, headers, body). */
function rawRequest(server: TestServer, text: string): Promise<string> {
  const { port } = new URL(server.baseUrl);
  return new Promise((resolve) => {
    let answer = '';
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', () => undefined);
  });
}

function parseRaw(answer: string) {
  const [head, ...rest] = answer.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  return { status, head, body: JSON.parse(rest.join('\r\n\r\n')) };
}

describe('Finding 12: NUL bytes, lone surrogates and unstorable dates are 400 VALIDATION_ERROR naming the field', () => {
  let server: TestServer;
  let merchant: TestMerchant;

  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.signUp();
  });
  afterAll(async () => server.close());

  const auth = () => ({ 'x-api-key': merchant.apiKey });
  const customerCount = async () =>
    (
      await server.runtime.dataSource.query('SELECT count(*)::int AS count FROM customers WHERE business_id = $1', [
        merchant.businessId,
      ])
    )[0].count;

  test('finding 12: a NUL byte in a body field is 400 VALIDATION_ERROR naming the field, and nothing is written', async () => {
    const before = await customerCount();
    const response = await server.request('POST', '/api/v1/business/customers', {
      headers: auth(),
      body: { email: 'nul@example.com', firstName: 'Ada\u0000Lovelace' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelope('VALIDATION_ERROR', 400));
    expect(response.body.error.errors).toEqual({ firstName: [expect.stringMatching(/NUL/)] });
    expect(await customerCount()).toBe(before);
  });

  test('finding 12: a lone surrogate anywhere in a body (nested, in metadata) is 400 naming its path', async () => {
    const response = await server.request('POST', '/api/v1/business/checkout/session', {
      headers: auth(),
      body: {
        amount: 5,
        currency: 'usd',
        successUrl: 'https://shop.example.com',
        metadata: { order: { note: 'broken \ud800 text' } },
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        errors: { 'metadata.order.note': [expect.stringMatching(/surrogate/)] },
      }),
    );
  });

  test('finding 12: a lone low surrogate and a NUL in an object key are refused too', async () => {
    const response = await server.request('POST', '/api/v1/business/checkout/session', {
      headers: auth(),
      body: {
        amount: 5,
        currency: 'usd',
        successUrl: 'https://shop.example.com\udc00',
        metadata: { 'bad\u0000key': 1 },
      },
    });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.error.errors).sort()).toEqual(['metadata', 'successUrl']);
  });

  test('finding 12: a NUL byte in the query string or a path parameter is 400 naming the parameter', async () => {
    const query = await server.request('GET', '/api/v1/business/payments?email=a%00b@example.com', { headers: auth() });
    expect(query.status).toBe(400);
    expect(query.body.error.errors).toEqual(expect.objectContaining({ email: [expect.stringMatching(/NUL/)] }));
    const param = await server.request('GET', '/api/v1/business/customers/abc%00def', { headers: auth() });
    expect(param.status).toBe(400);
    expect(param.body.error.errors).toEqual({ customerId: [expect.stringMatching(/NUL/)] });
  });

  test('finding 12: the check runs before authentication and the hosted pages get it too (never a 500)', async () => {
    const anonymous = await server.request('POST', '/api/v1/business/customers', {
      body: { email: 'x@example.com', firstName: '\u0000' },
    });
    expect(anonymous.status).toBe(400);
    const hosted = await server.request('POST', '/checkout/cs_test_unknown', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'cardNumber=4242%00&email=a%40b.co',
    });
    expect(hosted.status).toBe(400);
    expect(hosted.headers.get('content-type')).toMatch(/text\/html/);
  });

  test.each([
    ['/api/v1/events?from=99999-01-01', 'from'],
    ['/api/v1/events?to=-271821-04-20', 'to'],
    ['/api/v1/events?from=0000-12-31T23:59:59Z', 'from'],
    ['/api/v1/business/payments?from=99999-01-01', 'from'],
    ['/api/v1/business/payments?to=275760-09-13', 'to'],
  ])(
    'finding 12: a date PostgreSQL cannot store (%s) is 400 VALIDATION_ERROR naming the filter',
    async (path, field) => {
      const response = await server.request('GET', path, { headers: auth() });
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual(
        expect.objectContaining({
          code: 'VALIDATION_ERROR',
          errors: { [field]: [expect.stringMatching(/0001.*9999/)] },
        }),
      );
    },
  );

  test('finding 12: dates within the years 0001 to 9999 still filter', async () => {
    const response = await server.request(
      'GET',
      '/api/v1/events?from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59.999Z',
      { headers: auth() },
    );
    expect(response.status).toBe(200);
  });

  test('finding 12: a body nested deeper than 32 levels is 400 BAD_REQUEST, on REST and on /graphql with an Idempotency-Key', async () => {
    const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    const rest = await server.request('POST', '/api/v1/business/checkout/session', {
      headers: { ...auth(), 'content-type': 'application/json' },
      rawBody: `{"amount":5,"currency":"usd","successUrl":"https://shop.example.com","metadata":${deep(5000)}}`,
    });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual(envelope('BAD_REQUEST', 400));
    const graphql = await server.request('POST', '/graphql', {
      headers: { ...auth(), 'content-type': 'application/json', 'idempotency-key': 'deep-1' },
      rawBody: `{"query":"{ wallets { id } }","variables":${deep(5000)}}`,
    });
    expect(graphql.status).toBe(400);
    expect(graphql.body).toEqual(envelope('BAD_REQUEST', 400));
  });
});

describe("Finding 13: the framework's own refusals leave in the error envelope", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  test('finding 13: an over-long path parameter is 414 URI_TOO_LONG in the envelope, with the request id', async () => {
    const response = await server.request('GET', `/api/v1/business/customers/${'a'.repeat(500)}`, {
      headers: { 'x-request-id': 'long-param-1' },
    });
    expect(response.status).toBe(414);
    expect(response.body).toEqual(envelope('URI_TOO_LONG', 414));
    expect(response.headers.get('x-request-id')).toBe('long-param-1');
  });

  test('finding 13: bad percent-encoding in the path is 400 BAD_REQUEST in the envelope', async () => {
    const response = parseRaw(
      await rawRequest(server, 'GET /api/v1/business/customers/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    );
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelope('BAD_REQUEST', 400));
  });

  test('finding 13: oversized headers are 431 HEADERS_TOO_LARGE in the envelope', async () => {
    const response = parseRaw(
      await rawRequest(server, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expect(response.status).toBe(431);
    expect(response.head).toMatch(/content-type: application\/json/i);
    expect(response.body).toEqual(envelope('HEADERS_TOO_LARGE', 431));
  });

  test('finding 13: a request Node cannot parse is 400 BAD_REQUEST in the envelope', async () => {
    const response = parseRaw(await rawRequest(server, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header Name: 1\r\n\r\n'));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelope('BAD_REQUEST', 400));
  });
});

describe('Finding 14: database failures are logged with the SQL text, without its values', () => {
  let server: TestServer;
  const lines: Array<Record<string, any>> = [];
  const PRIVATE = ['ada@example.com', 'Ada Lovelace', '+2348012345678', 'cs_test_SECRETcapabilityToken'];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    server = await startTestServer(
      { logLevel: 'info' },
      (app) => {
        app.post('/api/v1/test-only/unique', async () => {
          const insert = 'INSERT INTO probe_customers (email, name, phone, token) VALUES ($1, $2, $3, $4)';
          await server.runtime.dataSource.query(insert, PRIVATE);
          await server.runtime.dataSource.query(insert, PRIVATE);
        });
        app.post('/api/v1/test-only/cast', async () =>
          server.runtime.dataSource.query('SELECT $1::uuid AS id, $2::text AS token', [PRIVATE[0], PRIVATE[3]]),
        );
      },
      { logStream },
    );
    await server.runtime.dataSource.query(
      'CREATE TABLE probe_customers (email text UNIQUE, name text, phone text, token text)',
    );
  });
  afterAll(async () => server.close());

  test.each([
    ['a unique violation (detail quotes the row)', '/api/v1/test-only/unique', 'INSERT INTO probe_customers'],
    ['a bad cast (the message and `where` quote the value)', '/api/v1/test-only/cast', 'SELECT $1::uuid'],
  ])(
    'finding 14: %s answers 500 and logs the SQL text and the error code, never the parameters',
    async (_case, path, sql) => {
      const response = await server.request('POST', path, { headers: { 'x-request-id': `db-${path.length}` } });
      expect(response.status).toBe(500);
      const logged = lines.filter((line) => line.reqId === `db-${path.length}` && line.level >= 50);
      expect(logged).toHaveLength(1);
      expect(logged[0].err.query).toContain(sql);
      expect(logged[0].err.code).toMatch(/^(23505|22P02)$/);
      const text = JSON.stringify(logged[0]);
      for (const value of PRIVATE) expect(text).not.toContain(value);
      expect(text).not.toMatch(/"parameters"|"detail"|"where"|"driverError"/);
    },
  );
});
