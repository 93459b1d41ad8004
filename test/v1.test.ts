import crypto from 'node:crypto';
import { Mode } from '../src/domain/shared/modes';
import { TestServer, overSocket, startTestServer } from './support/harness';
import { countRows, issueV1Key, paymentBody, setVerified, v1, v1Merchant } from './support/v1';

const PAYMENT_FIELDS = [
  'id',
  'status',
  'amount',
  'currency',
  'payment_url',
  'expires_at',
  'settle_in',
  'description',
  'redirect_url',
  'metadata',
  'created_at',
].sort();

describe('/v1: the alternate reference surface', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  describe('keys', () => {
    test('a tessera_test_sk_ key in Authorization: Bearer reaches the surface', async () => {
      const merchant = await v1Merchant(server);
      expect(merchant.testKey).toMatch(/^tessera_test_sk_[A-Za-z0-9_-]{32}$/);
      const listed = await v1(server, merchant.testKey)('GET', '/v1/payments');
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({ object: 'list', data: [], has_more: false });
    });

    test('keys are stored as a SHA-256 hash and a sealed copy, never in plain text', async () => {
      const merchant = await v1Merchant(server);
      const rows = await server.runtime.dataSource.query(
        'SELECT key_hash, key_ciphertext, key_hint FROM v1_api_keys WHERE business_id = $1',
        [merchant.businessId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].key_hash).toBe(crypto.createHash('sha256').update(merchant.testKey).digest('hex'));
      expect(rows[0].key_ciphertext).not.toContain(merchant.testKey);
      expect(rows[0].key_hint).toBe(`${merchant.testKey.slice(0, 20)}…`);
    });

    test('no key, an unknown key, a main-surface bk_ key or a dashboard token answers 401 invalid_api_key', async () => {
      const merchant = await v1Merchant(server);
      for (const key of [null, 'tessera_test_sk_unknown', merchant.apiKey, merchant.token]) {
        const response = await v1(server, key)('GET', '/v1/payments');
        expect(response.status).toBe(401);
        expect(response.body.error.code).toBe('invalid_api_key');
        expect(Object.keys(response.body)).toEqual(['error']);
      }
      const withApiKeyHeader = await server.request('GET', '/v1/payments', {
        headers: { 'x-api-key': merchant.apiKey },
      });
      expect(withApiKeyHeader.status).toBe(401);
      expect(withApiKeyHeader.body.error.code).toBe('invalid_api_key');
    });

    test('a tessera_ key on the main surface /api/v1 is refused there with the main envelope 401', async () => {
      const merchant = await v1Merchant(server);
      for (const headers of [
        { 'x-api-key': merchant.testKey },
        { authorization: `Bearer ${merchant.testKey}` },
      ] as Array<Record<string, string>>) {
        const response = await server.request('GET', '/api/v1/business/payouts', { headers });
        expect(response.status).toBe(401);
        expect(response.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', statusCode: 401 } });
      }
    });

    test('only a verified business gets keys; unverifying it refuses its key at once', async () => {
      const merchant = await server.createMerchant();
      await expect(issueV1Key(server, merchant.businessId)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await setVerified(server, merchant.businessId, true);
      const key = await issueV1Key(server, merchant.businessId);
      expect((await v1(server, key)('GET', '/v1/payments')).status).toBe(200);
      await setVerified(server, merchant.businessId, false);
      const refused = await v1(server, key)('GET', '/v1/payments');
      expect(refused.status).toBe(401);
      expect(refused.body.error).toEqual({
        code: 'invalid_api_key',
        message: 'API access requires a verified business account',
      });
    });

    test('reissuing a key revokes the previous key of that mode at once, and leaves the other mode alone', async () => {
      const merchant = await v1Merchant(server);
      const live = await issueV1Key(server, merchant.businessId, Mode.LIVE);
      const second = await issueV1Key(server, merchant.businessId);
      expect(second).not.toBe(merchant.testKey);
      expect((await v1(server, merchant.testKey)('GET', '/v1/payments')).status).toBe(401);
      expect((await v1(server, second)('GET', '/v1/payments')).status).toBe(200);
      expect((await v1(server, live)('GET', '/v1/payments')).status).toBe(200);
      expect(live).toMatch(/^tessera_live_sk_/);
    });

    test('an OWNER issues a key over GraphQL (shown once); other roles and unverified businesses are refused', async () => {
      const owner = await server.signUp();
      const mutation =
        'mutation($mode: Mode) { issueV1ApiKey(input: { mode: $mode }) { issuedV1ApiKey { apiKey mode keyHint createdAt } } }';
      const unverified = await server.graphql(mutation, {}, { authorization: `Bearer ${owner.token}` });
      expect(unverified.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      await setVerified(server, owner.businessId, true);
      const issued = await server.graphql(mutation, {}, { authorization: `Bearer ${owner.token}` });
      expect(issued.body.data.issueV1ApiKey.issuedV1ApiKey).toMatchObject({
        mode: 'TEST',
        apiKey: expect.stringMatching(/^tessera_test_sk_/),
      });
      const key = issued.body.data.issueV1ApiKey.issuedV1ApiKey.apiKey;
      expect((await v1(server, key)('GET', '/v1/payments')).status).toBe(200);
      const reissued = await server.graphql(mutation, { mode: 'TEST' }, { authorization: `Bearer ${owner.token}` });
      expect((await v1(server, key)('GET', '/v1/payments')).status).toBe(401);
      expect(
        (await v1(server, reissued.body.data.issueV1ApiKey.issuedV1ApiKey.apiKey)('GET', '/v1/payments')).status,
      ).toBe(200);

      const developer = await server.signUp();
      await server.addTeamMember(owner, developer, 'DEVELOPER');
      const refused = await server.graphql(
        mutation,
        {},
        { authorization: `Bearer ${developer.token}`, 'x-service-business-id': owner.businessId },
      );
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const withApiKey = await server.graphql(mutation, {}, { 'x-api-key': owner.apiKey });
      expect(withApiKey.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

      // Any member reads the active keys' hints, never the keys.
      const hints = await server.graphql(
        '{ v1ApiKeys { mode keyHint createdAt } }',
        {},
        { authorization: `Bearer ${developer.token}`, 'x-service-business-id': owner.businessId },
      );
      expect(hints.body.data.v1ApiKeys).toEqual([
        {
          mode: 'TEST',
          keyHint: reissued.body.data.issueV1ApiKey.issuedV1ApiKey.keyHint,
          createdAt: expect.any(String),
        },
      ]);
      expect(JSON.stringify(hints.body)).not.toContain(reissued.body.data.issueV1ApiKey.issuedV1ApiKey.apiKey);
    });

    test('node(id:) answers an active /v1 key (its hint) to its business, and null to another business or once it is reissued', async () => {
      const owner = await server.signUp();
      const stranger = await server.signUp();
      await setVerified(server, owner.businessId, true);
      const issue = 'mutation($mode: Mode) { issueV1ApiKey(input: { mode: $mode }) { issuedV1ApiKey { keyHint } } }';
      await server.graphql(issue, {}, { authorization: `Bearer ${owner.token}` });
      const [key] = (
        await server.graphql('{ v1ApiKeys { id mode keyHint } }', {}, { authorization: `Bearer ${owner.token}` })
      ).body.data.v1ApiKeys;
      const NODE = 'query($id: ID!) { node(id: $id) { __typename id ... on V1ApiKey { mode keyHint } } }';
      expect(
        (await server.graphql(NODE, { id: key.id }, { authorization: `Bearer ${owner.token}` })).body.data.node,
      ).toEqual({ __typename: 'V1ApiKey', ...key });
      expect(
        (await server.graphql(NODE, { id: key.id }, { authorization: `Bearer ${stranger.token}` })).body.data.node,
      ).toBeNull();
      await server.graphql(issue, { mode: 'TEST' }, { authorization: `Bearer ${owner.token}` });
      expect(
        (await server.graphql(NODE, { id: key.id }, { authorization: `Bearer ${owner.token}` })).body.data.node,
      ).toBeNull();
    });

    test('issueV1ApiKey with a mode that is no Mode is refused before anything is written', async () => {
      const owner = await server.signUp();
      await setVerified(server, owner.businessId, true);
      const refused = await server.graphql(
        'mutation { issueV1ApiKey(input: { mode: SANDBOX }) { issuedV1ApiKey { apiKey } } }',
        {},
        { authorization: `Bearer ${owner.token}` },
      );
      expect(refused.body.data).toBeUndefined();
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
      const byVariable = await server.graphql(
        'mutation($mode: Mode) { issueV1ApiKey(input: { mode: $mode }) { issuedV1ApiKey { apiKey } } }',
        { mode: 'sandbox' },
        { authorization: `Bearer ${owner.token}` },
      );
      expect(byVariable.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(
        await server.runtime.dataSource.query('SELECT 1 FROM v1_api_keys WHERE business_id = $1', [owner.businessId]),
      ).toEqual([]);
    });

    test('over WebSocket as over HTTP: only an OWNER issues a key; a DEVELOPER or an API key is refused (FORBIDDEN) and nothing is written', async () => {
      const owner = await server.signUp();
      await setVerified(server, owner.businessId, true);
      const developer = await server.signUp();
      await server.addTeamMember(owner, developer, 'DEVELOPER');
      const mutation = 'mutation { issueV1ApiKey(input: {}) { issuedV1ApiKey { apiKey mode } } }';
      for (const params of [
        { authorization: `Bearer ${developer.token}`, businessId: owner.businessId },
        { apiKey: owner.apiKey },
      ]) {
        const refused = await overSocket(server.subscribe(params), mutation);
        expect(refused.result?.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      }
      expect(
        await server.runtime.dataSource.query('SELECT 1 FROM v1_api_keys WHERE business_id = $1', [owner.businessId]),
      ).toEqual([]);
      const issued = await overSocket(
        server.subscribe({ authorization: `Bearer ${owner.token}`, businessId: owner.businessId }),
        mutation,
      );
      expect(issued.result?.data?.issueV1ApiKey.issuedV1ApiKey).toMatchObject({
        mode: 'TEST',
        apiKey: expect.stringMatching(/^tessera_test_sk_/),
      });
    });

    test("an OWNER naming another business gets NOT_FOUND from issueV1ApiKey and v1ApiKeys: no key issued, the business's key still works", async () => {
      const merchant = await v1Merchant(server);
      const stranger = await server.signUp();
      await setVerified(server, stranger.businessId, true);
      const asStranger = { authorization: `Bearer ${stranger.token}`, 'x-service-business-id': merchant.businessId };
      const issued = await server.graphql(
        'mutation { issueV1ApiKey(input: {}) { issuedV1ApiKey { apiKey } } }',
        {},
        asStranger,
      );
      expect(issued.body.data?.issueV1ApiKey ?? null).toBeNull();
      expect(issued.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const hints = await server.graphql('{ v1ApiKeys { keyHint } }', {}, asStranger);
      expect(hints.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(
        await server.runtime.dataSource.query('SELECT 1 FROM v1_api_keys WHERE business_id = $1', [
          merchant.businessId,
        ]),
      ).toHaveLength(1);
      expect((await v1(server, merchant.testKey)('GET', '/v1/payments')).status).toBe(200);
    });
  });

  describe('errors: { error: { code, message } } on every failure', () => {
    test('an unknown path under /v1 answers 404 not_found, to anyone', async () => {
      for (const key of [null, (await v1Merchant(server)).testKey]) {
        const response = await v1(server, key)('GET', '/v1/nothing/here');
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: { code: 'not_found', message: 'No route for GET /v1/nothing/here' } });
      }
      for (const path of ['/v1', '/v1/', '/v1/business/nothing']) {
        const response = await server.request('GET', path);
        expect({
          path,
          status: response.status,
          code: response.body.error?.code,
          keys: Object.keys(response.body),
        }).toEqual({ path, status: 404, code: 'not_found', keys: ['error'] });
      }
    });

    test('a method the path does not serve answers 405 method_not_allowed with Allow', async () => {
      const merchant = await v1Merchant(server);
      const response = await v1(server, merchant.testKey)('DELETE', '/v1/payments');
      expect(response.status).toBe(405);
      expect(response.body.error.code).toBe('method_not_allowed');
      expect(response.headers.get('allow')).toContain('POST');
    });

    test('malformed JSON answers 400 bad_request and writes nothing', async () => {
      const merchant = await v1Merchant(server);
      const before = await countRows(server, 'v1_payments');
      const response = await server.request('POST', '/v1/payments', {
        rawBody: '{"amount": 10',
        headers: { authorization: `Bearer ${merchant.testKey}`, 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: { code: 'bad_request', message: 'Request body is not valid JSON' } });
      expect(await countRows(server, 'v1_payments')).toBe(before);
    });

    test.each(['text/plain', 'application/xml', 'application/x-www-form-urlencoded'])(
      'a body with Content-Type %s answers 400 bad_request (REST answers 415) and writes nothing',
      async (contentType) => {
        const merchant = await v1Merchant(server);
        const before = await countRows(server, 'v1_payments');
        const response = await server.request('POST', '/v1/payments', {
          rawBody: 'amount=1050&currency=usd',
          headers: { authorization: `Bearer ${merchant.testKey}`, 'content-type': contentType },
        });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          error: { code: 'bad_request', message: 'Unsupported Content-Type; send application/json' },
        });
        expect(await countRows(server, 'v1_payments')).toBe(before);
      },
    );

    test('an empty body with Content-Type application/json is no body, as on REST: 422 validation_failed naming the missing fields', async () => {
      const merchant = await v1Merchant(server);
      const response = await server.request('POST', '/v1/payments', {
        rawBody: '',
        headers: { authorization: `Bearer ${merchant.testKey}`, 'content-type': 'application/json; charset=utf-8' },
      });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        error: {
          code: 'validation_failed',
          message: 'Validation failed',
          details: {
            amount: [expect.stringMatching(/^is required/)],
            currency: [expect.stringMatching(/^is required/)],
          },
        },
      });
    });

    test('an oversized body answers 413 payload_too_large in the /v1 body', async () => {
      const merchant = await v1Merchant(server);
      const response = await v1(server, merchant.testKey)(
        'POST',
        '/v1/payments',
        paymentBody({ description: 'x'.repeat(1_100_000) }),
      );
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ error: { code: 'payload_too_large', message: 'Request body is too large' } });
    });

    test('an unexpected failure answers 500 internal_error, without a stack or the cause', async () => {
      const merchant = await v1Merchant(server);
      const failing = jest
        .spyOn(server.runtime.core.v1Payments, 'get')
        .mockRejectedValueOnce(new TypeError('secret internal detail'));
      try {
        const response = await v1(server, merchant.testKey)('GET', '/v1/payments/00000000-0000-4000-8000-000000000000');
        expect(response.status).toBe(500);
        expect(response.body).toEqual({
          error: { code: 'internal_error', message: 'An unexpected error occurred; retry with exponential backoff' },
        });
      } finally {
        failing.mockRestore();
      }
    });

    test('router failures under /v1 (a path segment too long, percent-encoding that does not decode) answer in the /v1 body', async () => {
      const merchant = await v1Merchant(server);
      const tooLong = await v1(server, merchant.testKey)('GET', `/v1/payments/${'a'.repeat(200)}`);
      expect(tooLong.status).toBe(414);
      expect(tooLong.body.error.code).toBe('uri_too_long');
      const badUrl = await v1(server, merchant.testKey)('GET', '/v1/payments/%E0%A4%A');
      expect(badUrl.status).toBe(400);
      expect(badUrl.body.error.code).toBe('bad_request');
      expect(Object.keys(badUrl.body)).toEqual(['error']);
    });

    test('a payment of another business, or an id that is no payment, answers 404 not_found', async () => {
      const [first, second] = [await v1Merchant(server), await v1Merchant(server)];
      const created = await v1(server, first.testKey)('POST', '/v1/payments', paymentBody());
      for (const id of [created.body.id, 'not-an-id', '00000000-0000-4000-8000-000000000000']) {
        const response = await v1(server, second.testKey)('GET', `/v1/payments/${id}`);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: { code: 'not_found', message: 'Payment not found' } });
      }
    });
  });

  describe('POST /v1/payments', () => {
    test('answers 201 with the documented fields: pending, integer amount, hosted payment_url, expires_at 24 h later, null where absent', async () => {
      const merchant = await v1Merchant(server);
      const before = Date.now();
      const response = await v1(server, merchant.testKey)('POST', '/v1/payments', paymentBody());
      expect(response.status).toBe(201);
      const payment = response.body;
      expect(Object.keys(payment).sort()).toEqual(PAYMENT_FIELDS);
      expect(payment).toMatchObject({
        status: 'pending',
        amount: 1050,
        currency: 'USD',
        settle_in: 'USD',
        description: null,
        redirect_url: null,
        metadata: null,
      });
      expect(payment.payment_url).toMatch(/\/checkout\/cs_test_[A-Za-z0-9_-]{43}$/);
      const lifetime = Date.parse(payment.expires_at) - Date.parse(payment.created_at);
      expect(lifetime).toBe(24 * 3600 * 1000);
      expect(Date.parse(payment.created_at)).toBeGreaterThanOrEqual(before - 1000);
    });

    test('keeps settle_in, description, redirect_url and metadata as sent', async () => {
      const merchant = await v1Merchant(server);
      const response = await v1(server, merchant.testKey)(
        'POST',
        '/v1/payments',
        paymentBody({
          currency: 'EUR',
          settle_in: 'eur',
          description: 'Order 42',
          redirect_url: 'https://shop.example.com/done',
          webhook_url: 'https://shop.example.com/hooks',
          metadata: { order: 42, tags: ['a'] },
        }),
      );
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        currency: 'EUR',
        settle_in: 'EUR',
        description: 'Order 42',
        redirect_url: 'https://shop.example.com/done',
        metadata: { order: 42, tags: ['a'] },
      });
      const read = await v1(server, merchant.testKey)('GET', `/v1/payments/${response.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(response.body);
    });

    test('an Idempotency-Key replays the first answer instead of creating a second payment', async () => {
      const merchant = await v1Merchant(server);
      const call = v1(server, merchant.testKey);
      const headers = { 'idempotency-key': 'order-1' };
      const first = await call('POST', '/v1/payments', paymentBody(), headers);
      const again = await call('POST', '/v1/payments', paymentBody(), headers);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect((await call('GET', '/v1/payments')).body.data).toHaveLength(1);
    });

    test('the payment is the hosted checkout session of the same id on the main surface', async () => {
      const merchant = await v1Merchant(server);
      const created = await v1(server, merchant.testKey)('POST', '/v1/payments', paymentBody({ amount: 2500 }));
      const session = await server.request('GET', `/api/v1/business/checkout/sessions/${created.body.id}`, {
        headers: { 'x-api-key': merchant.apiKey },
      });
      expect(session.status).toBe(200);
      expect(session.body.data).toMatchObject({
        id: created.body.id,
        source: 'v1',
        status: 'OPEN',
        checkoutUrl: created.body.payment_url,
      });
    });

    test.each([
      ['a non-integer amount', { amount: 10.5 }, 'amount'],
      ['a zero amount', { amount: 0 }, 'amount'],
      ['a negative amount', { amount: -100 }, 'amount'],
      ['an amount as a string', { amount: '1050' }, 'amount'],
      ['a missing amount', { amount: undefined }, 'amount'],
      ['a 2-letter currency', { currency: 'us' }, 'currency'],
      ['a 4-letter currency', { currency: 'usdc' }, 'currency'],
      ['an unknown currency', { currency: 'xyz' }, 'currency'],
      ['an unknown settle_in', { settle_in: 'xyz' }, 'settle_in'],
      ['a redirect_url that is no URL', { redirect_url: 'not a url' }, 'redirect_url'],
      ['a webhook_url that is no URL', { webhook_url: 'ftp://example.com/x' }, 'webhook_url'],
      ['metadata that is no object', { metadata: [1, 2] }, 'metadata'],
      ['an unknown field', { colour: 'red' }, '_'],
    ])('%s answers 422 validation_failed naming the field, and writes nothing', async (_name, overrides, field) => {
      const merchant = await v1Merchant(server);
      const before = [await countRows(server, 'v1_payments'), await countRows(server, 'checkout_sessions')];
      const response = await v1(server, merchant.testKey)('POST', '/v1/payments', paymentBody(overrides));
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
      expect(Object.keys(response.body.error.details)).toContain(field);
      expect([await countRows(server, 'v1_payments'), await countRows(server, 'checkout_sessions')]).toEqual(before);
    });

    test('a live key creates no payment while live mode has no card acquirer: 422 unprocessable, nothing written', async () => {
      const merchant = await v1Merchant(server);
      const live = await issueV1Key(server, merchant.businessId, Mode.LIVE);
      const before = [await countRows(server, 'v1_payments'), await countRows(server, 'checkout_sessions')];
      const response = await v1(server, live)('POST', '/v1/payments', paymentBody());
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('unprocessable');
      expect([await countRows(server, 'v1_payments'), await countRows(server, 'checkout_sessions')]).toEqual(before);
    });

    test("a live key refuses private webhook_url and redirect_url addresses (422), like the main surface's URL policy", async () => {
      const merchant = await v1Merchant(server);
      const live = await issueV1Key(server, merchant.businessId, Mode.LIVE);
      const before = await countRows(server, 'v1_payments');
      const response = await v1(server, live)(
        'POST',
        '/v1/payments',
        paymentBody({ webhook_url: 'http://127.0.0.1:9/hook', redirect_url: 'https://10.0.0.1/done' }),
      );
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
      expect(Object.keys(response.body.error.details).sort()).toEqual(['redirect_url', 'webhook_url']);
      expect(await countRows(server, 'v1_payments')).toBe(before);
    });
  });

  describe('GET /v1/payments', () => {
    test('lists newest first as { object: "list", data, has_more }, pages with limit and after, and filters by status', async () => {
      const merchant = await v1Merchant(server);
      const call = v1(server, merchant.testKey);
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1)
        ids.push((await call('POST', '/v1/payments', paymentBody({ amount: 100 + index }))).body.id);
      const newestFirst = [...ids].reverse();
      const first = await call('GET', '/v1/payments?limit=2');
      expect(first.body).toMatchObject({ object: 'list', has_more: true });
      expect(first.body.data.map((payment: { id: string }) => payment.id)).toEqual(newestFirst.slice(0, 2));
      const second = await call('GET', `/v1/payments?limit=2&after=${first.body.data[1].id}`);
      expect(second.body.data.map((payment: { id: string }) => payment.id)).toEqual(newestFirst.slice(2, 4));
      const last = await call('GET', `/v1/payments?limit=2&after=${second.body.data[1].id}`);
      expect(last.body).toMatchObject({ has_more: false });
      expect(last.body.data.map((payment: { id: string }) => payment.id)).toEqual(newestFirst.slice(4));
      expect((await call('GET', '/v1/payments?status=pending')).body.data).toHaveLength(5);
      expect((await call('GET', '/v1/payments?status=completed')).body.data).toEqual([]);
    });

    test.each([
      ['limit over 100', 'limit=101', 'limit'],
      ['limit zero', 'limit=0', 'limit'],
      ['a malformed after', 'after=abc', 'after'],
      ['an after that is no payment of the account', 'after=00000000-0000-4000-8000-000000000000', 'after'],
      ['an unknown status', 'status=PAID', 'status'],
    ])('%s answers 422 validation_failed', async (_name, query, field) => {
      const merchant = await v1Merchant(server);
      const response = await v1(server, merchant.testKey)('GET', `/v1/payments?${query}`);
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
      expect(Object.keys(response.body.error.details)).toEqual([field]);
    });

    test("test and live keys never see each other's payments", async () => {
      const merchant = await v1Merchant(server);
      const live = await issueV1Key(server, merchant.businessId, Mode.LIVE);
      const created = await v1(server, merchant.testKey)('POST', '/v1/payments', paymentBody());
      expect((await v1(server, live)('GET', `/v1/payments/${created.body.id}`)).status).toBe(404);
      expect((await v1(server, live)('GET', '/v1/payments')).body.data).toEqual([]);
      expect((await v1(server, merchant.testKey)('GET', '/v1/payments')).body.data).toHaveLength(1);
    });
  });

  describe('GET /v1/rates', () => {
    test("answers the FX provider's rate and fee as numbers, as payouts get them", async () => {
      const merchant = await v1Merchant(server);
      const response = await v1(server, merchant.testKey)('GET', '/v1/rates?from=usd&to=NGN');
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(['expires_at', 'fee_pct', 'from', 'rate', 'to']);
      // The sandbox: 1550 NGN per USD less the 0.5% spread; the local-bank fee is 1%.
      expect(response.body).toMatchObject({ from: 'USD', to: 'NGN', rate: 1542.25, fee_pct: 1 });
      const quote = await server.request('POST', '/api/v1/business/payouts/quote', {
        headers: { 'x-api-key': merchant.apiKey },
        body: { amount: '100.00', currency: 'USD', destinationCurrency: 'NGN', rail: 'LOCAL_BANK', country: 'NG' },
      });
      expect(quote.status).toBe(201);
      expect(Number(quote.body.data.rate)).toBe(response.body.rate);
      expect(Date.parse(response.body.expires_at)).toBeGreaterThan(Date.now());
    });

    test.each([
      ['a 2-letter from', 'from=us&to=ngn'],
      ['a missing to', 'from=usd'],
      ['an unknown currency', 'from=usd&to=xyz'],
    ])('%s answers 422 validation_failed', async (_name, query) => {
      const merchant = await v1Merchant(server);
      const response = await v1(server, merchant.testKey)('GET', `/v1/rates?${query}`);
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('validation_failed');
    });
  });

  describe('the OpenAPI document', () => {
    test('GET /v1/openapi.json is an OpenAPI 3.1 document of the /v1 routes only, public', async () => {
      const response = await server.request('GET', '/v1/openapi.json');
      expect(response.status).toBe(200);
      expect(response.body.openapi).toBe('3.1.0');
      expect(Object.keys(response.body.paths).sort()).toEqual([
        '/v1/payments',
        '/v1/payments/{id}',
        '/v1/rates',
        '/v1/transfers',
        '/v1/transfers/{id}',
      ]);
      expect(response.body.paths['/v1/payments'].post.security).toEqual([{ secretKey: [] }]);
      expect(response.body.paths['/v1/payments'].post.responses['201']).toBeDefined();
    });
  });

  test("GET /v1/business/payouts/:id stays the main surface's documented path, with its envelope and credentials", async () => {
    const merchant = await v1Merchant(server);
    const response = await server.request('GET', '/v1/business/payouts/00000000-0000-4000-8000-000000000000', {
      headers: { 'x-api-key': merchant.apiKey },
    });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });
});
