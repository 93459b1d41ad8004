import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import { ApiResponse, TestMerchant, TestServer, startTestServer } from './support/harness';

/** Merchant API authentication (interface document, Authentication and Errors; design section 4). */

const TOKEN = '/api/v1/business/auth/token';
const WALLETS = '/api/v1/business/wallets';
const CONFIG = '/api/v1/business/config';
const REGENERATE = '/api/v1/business/regenerate-api-key';
const FUND = '/api/v1/business/sandbox/wallets/fund';

/** What the test server signs with (test/support/harness.ts) and the issuer Tessera sets. */
const JWT_SECRET = 'test-jwt-secret';
const ISSUER = 'tessera';

const unauthorizedEnvelope = {
  success: false,
  error: { code: 'UNAUTHORIZED', message: expect.any(String), statusCode: 401 },
};

const withKey = (apiKey: string) => ({ 'x-api-key': apiKey });
const withBearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface Credentials {
  apiKey: string;
  apiSecret: string;
}

describe('Authentication (interface document, Authentication)', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  let other: TestMerchant;

  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.signUp();
    other = await server.signUp();
  });
  afterAll(async () => server.close());

  const exchange = (body: unknown) => server.request('POST', TOKEN, { body });

  async function accessToken(credentials: Credentials): Promise<string> {
    const response = await exchange({ apiKey: credentials.apiKey, apiSecret: credentials.apiSecret });
    expect(response.status).toBe(200);
    return response.body.data.accessToken;
  }

  /** Live credentials, issued the documented way: GraphQL createLiveCredentials with the owner's JWT. */
  async function liveCredentialsOf(owner: TestMerchant): Promise<Credentials> {
    const response = await server.graphql(
      'mutation { createLiveCredentials { credentials { apiKey apiSecret } } }',
      {},
      withBearer(owner.token),
    );
    expect(response.body.errors).toBeUndefined();
    return response.body.data.createLiveCredentials.credentials;
  }

  async function credentialRow(businessId: string, livemode: boolean) {
    const [row] = await server.runtime.dataSource.query(
      'SELECT id, key_hash, key_version FROM api_credentials WHERE business_id = $1 AND livemode = $2',
      [businessId, livemode],
    );
    return row as { id: string; key_hash: string; key_version: number };
  }

  describe('token exchange (POST /api/v1/business/auth/token)', () => {
    test('the OpenAPI document declares the token exchange as the interface document does: both fields required, the token response', async () => {
      const document = (await server.request('GET', '/api/v1/openapi.json')).body;
      const operation = document.paths['/api/v1/business/auth/token'].post;
      const body = operation.requestBody.content['application/json'].schema;
      expect(body.required.sort()).toEqual(['apiKey', 'apiSecret']);
      const resolve = (schema: { $ref?: string }) =>
        schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()!] : schema;
      const data = resolve(resolve(operation.responses['200'].content['application/json'].schema).properties.data);
      expect(Object.keys(data.properties).sort()).toEqual([
        'accessToken',
        'businessId',
        'businessName',
        'expiresIn',
        'tokenType',
      ]);
      expect(data.properties.tokenType).toMatchObject({ const: 'Bearer' });
      expect(operation.security).toBeUndefined();
    });

    test('token exchange returns accessToken, tokenType Bearer, expiresIn 3600, businessId and businessName', async () => {
      const response = await exchange({ apiKey: merchant.apiKey, apiSecret: merchant.apiSecret });
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      expect(response.body.data).toEqual({
        accessToken: expect.any(String),
        tokenType: 'Bearer',
        expiresIn: 3600,
        businessId: merchant.businessId,
        businessName: expect.stringMatching(/^Business /),
      });
    });

    test('the access token is an HS256 JWT that expires 3600 seconds after it was issued', async () => {
      const token = await accessToken(merchant);
      const decoded = jwt.decode(token, { complete: true }) as jwt.Jwt & { payload: jwt.JwtPayload };
      expect(decoded.header.alg).toBe('HS256');
      expect(decoded.payload.exp! - decoded.payload.iat!).toBe(3600);
      expect(decoded.payload).toMatchObject({ kind: 'api', bid: merchant.businessId, mode: 'test', iss: ISSUER });
    });

    test.each([
      ['apiKey', { apiSecret: 'bs_test_x' }],
      ['apiSecret', { apiKey: 'bk_test_x' }],
    ])('token exchange answers 400 when %s is missing', async (field, body) => {
      const response = await exchange(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: {
          code: 'VALIDATION_ERROR',
          message: expect.any(String),
          statusCode: 400,
          errors: { [field]: expect.any(Array) },
        },
      });
    });

    test('token exchange answers 400 with both fields in errors when the body is empty', async () => {
      const response = await exchange({});
      expect(response.status).toBe(400);
      expect(Object.keys(response.body.error.errors).sort()).toEqual(['apiKey', 'apiSecret']);
    });

    test('token exchange says "must be a string" for a field of the wrong type and "is required" only for an absent one', async () => {
      const response = await exchange({ apiKey: 12345 });
      expect(response.status).toBe(400);
      expect(response.body.error.errors).toEqual({ apiKey: ['must be a string'], apiSecret: ['is required'] });
    });

    test('token exchange answers 401 in the error envelope when the apiKey is unknown', async () => {
      const response = await exchange({
        apiKey: `bk_test_${crypto.randomBytes(24).toString('base64url')}`,
        apiSecret: merchant.apiSecret,
      });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorizedEnvelope);
    });

    test('token exchange answers 401 when the apiKey has neither the bk_test_ nor the bk_live_ prefix', async () => {
      const response = await exchange({
        apiKey: merchant.apiKey.replace('bk_test_', 'xx_test_'),
        apiSecret: merchant.apiSecret,
      });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorizedEnvelope);
    });

    test('token exchange answers 401 in the error envelope when the apiSecret is wrong', async () => {
      const response = await exchange({ apiKey: merchant.apiKey, apiSecret: `${merchant.apiSecret}x` });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorizedEnvelope);
    });

    test("token exchange answers 401 when the apiKey is right but the apiSecret is another business's", async () => {
      const response = await exchange({ apiKey: merchant.apiKey, apiSecret: other.apiSecret });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorizedEnvelope);
    });

    test('an unknown apiKey and a wrong apiSecret get the same 401 message, so keys cannot be probed', async () => {
      const unknownKey = await exchange({
        apiKey: `bk_test_${crypto.randomBytes(24).toString('base64url')}`,
        apiSecret: 'bs_test_x',
      });
      const wrongSecret = await exchange({ apiKey: merchant.apiKey, apiSecret: 'bs_test_x' });
      expect(unknownKey.body.error.message).toBe(wrongSecret.body.error.message);
    });
  });

  describe('x-api-key and Authorization: Bearer on REST operations', () => {
    test.each([WALLETS, CONFIG])('GET %s accepts the API key in x-api-key', async (path) => {
      const response = await server.request('GET', path, { headers: withKey(merchant.apiKey) });
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
    });

    test.each([WALLETS, CONFIG])('GET %s accepts the access token in Authorization: Bearer', async (path) => {
      const response = await server.request('GET', path, { headers: withBearer(await accessToken(merchant)) });
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
    });

    test('the key and the token made from it act for the same business and mode', async () => {
      const byKey = await server.request('GET', CONFIG, { headers: withKey(merchant.apiKey) });
      const byToken = await server.request('GET', CONFIG, { headers: withBearer(await accessToken(merchant)) });
      expect(byKey.body.data).toMatchObject({ businessId: merchant.businessId, livemode: false });
      expect(byToken.body.data).toEqual(byKey.body.data);
    });

    test.each([WALLETS, CONFIG])('GET %s without credentials answers 401 in the error envelope', async (path) => {
      const response = await server.request('GET', path);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorizedEnvelope);
    });

    test.each([
      ['a garbage bearer token', { authorization: 'Bearer not.a.jwt' }],
      ['an API key sent as the bearer token', { authorization: 'Bearer bk_test_abc' }],
      ['an unknown x-api-key', { 'x-api-key': `bk_test_${crypto.randomBytes(24).toString('base64url')}` }],
      ['an x-api-key without a known prefix', { 'x-api-key': 'sk_test_abc' }],
      [
        'Basic authorization instead of Bearer',
        { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` },
      ],
    ])('%s answers 401 in the error envelope', async (_name, headers) => {
      for (const path of [WALLETS, CONFIG]) {
        const response = await server.request('GET', path, { headers });
        expect(response.status).toBe(401);
        expect(response.body).toEqual(unauthorizedEnvelope);
      }
    });

    test('the secret alone is not an API key', async () => {
      const response = await server.request('GET', CONFIG, { headers: withKey(merchant.apiSecret) });
      expect(response.status).toBe(401);
    });

    test('x-api-key wins over Authorization when a request carries both', async () => {
      const response = await server.request('GET', CONFIG, {
        headers: { ...withKey(merchant.apiKey), authorization: 'Bearer garbage' },
      });
      expect(response.status).toBe(200);
      expect(response.body.data.businessId).toBe(merchant.businessId);
    });

    test('X-Service-Business-Id of another business answers 404 with an API key and with a token', async () => {
      const header = { 'x-service-business-id': other.businessId };
      const byKey = await server.request('GET', CONFIG, { headers: { ...withKey(merchant.apiKey), ...header } });
      const byToken = await server.request('GET', CONFIG, {
        headers: { ...withBearer(await accessToken(merchant)), ...header },
      });
      for (const response of [byKey, byToken]) {
        expect(response.status).toBe(404);
        expect(response.body).toEqual({
          success: false,
          error: { code: 'NOT_FOUND', message: expect.any(String), statusCode: 404 },
        });
      }
    });

    test("X-Service-Business-Id equal to the credential's own business is accepted", async () => {
      const response = await server.request('GET', CONFIG, {
        headers: { ...withKey(merchant.apiKey), 'x-service-business-id': merchant.businessId },
      });
      expect(response.status).toBe(200);
    });
  });

  describe('access tokens: HS256 pinned, issuer and expiry enforced, bound to their credential', () => {
    let claims: { kind: 'api'; sub: string; bid: string; mode: 'test'; kv: number };

    beforeAll(async () => {
      const credential = await credentialRow(merchant.businessId, false);
      claims = { kind: 'api', sub: credential.id, bid: merchant.businessId, mode: 'test', kv: credential.key_version };
    });

    const getConfig = (token: string) => server.request('GET', CONFIG, { headers: withBearer(token) });
    const expectRefused = (response: ApiResponse) => {
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorizedEnvelope);
    };

    test('a token signed HS256 with the server secret, issuer tessera and the right claims is accepted', async () => {
      const token = jwt.sign(claims, JWT_SECRET, { algorithm: 'HS256', issuer: ISSUER, expiresIn: 60 });
      const response = await getConfig(token);
      expect(response.status).toBe(200);
      expect(response.body.data.businessId).toBe(merchant.businessId);
    });

    test('a token with alg "none" is refused with 401', async () => {
      const token = jwt.sign(claims, null as unknown as string, { algorithm: 'none', issuer: ISSUER, expiresIn: 60 });
      expect(token.endsWith('.')).toBe(true);
      expectRefused(await getConfig(token));
    });

    test('a token signed with HS512 (even with the server secret) is refused with 401', async () => {
      const token = jwt.sign(claims, JWT_SECRET, { algorithm: 'HS512', issuer: ISSUER, expiresIn: 60 });
      expectRefused(await getConfig(token));
    });

    test('a token signed with another secret is refused with 401', async () => {
      const token = jwt.sign(claims, 'another-secret', { algorithm: 'HS256', issuer: ISSUER, expiresIn: 60 });
      expectRefused(await getConfig(token));
    });

    test('an expired token is refused with 401', async () => {
      const now = Math.floor(Date.now() / 1000);
      const token = jwt.sign({ ...claims, iat: now - 7200, exp: now - 60 }, JWT_SECRET, {
        algorithm: 'HS256',
        issuer: ISSUER,
      });
      expectRefused(await getConfig(token));
    });

    test('a token without an expiry is refused with 401', async () => {
      const token = jwt.sign(claims, JWT_SECRET, { algorithm: 'HS256', issuer: ISSUER });
      expectRefused(await getConfig(token));
    });

    test('a token from another issuer is refused with 401', async () => {
      const token = jwt.sign(claims, JWT_SECRET, { algorithm: 'HS256', issuer: 'someone-else', expiresIn: 60 });
      expectRefused(await getConfig(token));
    });

    test("a token whose bid is not its credential's business is refused with 401", async () => {
      const token = jwt.sign({ ...claims, bid: other.businessId }, JWT_SECRET, {
        algorithm: 'HS256',
        issuer: ISSUER,
        expiresIn: 60,
      });
      expectRefused(await getConfig(token));
    });

    test("a token whose mode is not its credential's mode is refused with 401, so a test credential never reads live data", async () => {
      const token = jwt.sign({ ...claims, mode: 'live' }, JWT_SECRET, {
        algorithm: 'HS256',
        issuer: ISSUER,
        expiresIn: 60,
      });
      expectRefused(await getConfig(token));
    });

    test("a token for a key version other than the credential's is refused with 401", async () => {
      const token = jwt.sign({ ...claims, kv: claims.kv + 1 }, JWT_SECRET, {
        algorithm: 'HS256',
        issuer: ISSUER,
        expiresIn: 60,
      });
      expectRefused(await getConfig(token));
    });
  });

  describe('POST /api/v1/business/regenerate-api-key', () => {
    let owner: TestMerchant;
    let oldToken: string;
    let regenerated: ApiResponse;
    let newKey: string;

    beforeAll(async () => {
      owner = await server.signUp();
      oldToken = await accessToken(owner);
      regenerated = await server.request('POST', REGENERATE, { headers: withKey(owner.apiKey) });
      newKey = regenerated.body?.data?.apiKey;
    });

    test('returns the new key once, with the bk_test_ prefix, its hint, the mode and the business', async () => {
      expect(regenerated.status).toBe(200);
      expect(regenerated.body).toEqual({
        success: true,
        data: {
          apiKey: expect.stringMatching(/^bk_test_[A-Za-z0-9_-]{32}$/),
          keyHint: expect.any(String),
          mode: 'test',
          businessId: owner.businessId,
        },
      });
      expect(newKey).not.toBe(owner.apiKey);
      expect(regenerated.body.data.keyHint).toBe(`${newKey.slice(0, 12)}…`);
    });

    test('the new key is never shown again: apiCredentials returns only its hint', async () => {
      const response = await server.graphql(
        '{ apiCredentials { mode keyHint keyVersion } }',
        {},
        withBearer(owner.token),
      );
      expect(response.body.data.apiCredentials).toEqual([
        { mode: 'TEST', keyHint: `${newKey.slice(0, 12)}…`, keyVersion: 2 },
      ]);
      expect(JSON.stringify(response.body)).not.toContain(newKey);
    });

    test('the previous key answers 401 at once', async () => {
      const response = await server.request('GET', WALLETS, { headers: withKey(owner.apiKey) });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorizedEnvelope);
    });

    test('tokens made from the previous key answer 401', async () => {
      const response = await server.request('GET', WALLETS, { headers: withBearer(oldToken) });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorizedEnvelope);
    });

    test('the previous key is refused at token exchange', async () => {
      const response = await exchange({ apiKey: owner.apiKey, apiSecret: owner.apiSecret });
      expect(response.status).toBe(401);
    });

    test('the new key works in x-api-key', async () => {
      const response = await server.request('GET', CONFIG, { headers: withKey(newKey) });
      expect(response.status).toBe(200);
      expect(response.body.data.businessId).toBe(owner.businessId);
    });

    test('the secret is unchanged and works with the new key at token exchange', async () => {
      const token = await accessToken({ apiKey: newKey, apiSecret: owner.apiSecret });
      const response = await server.request('GET', CONFIG, { headers: withBearer(token) });
      expect(response.status).toBe(200);
      expect(response.body.data.businessId).toBe(owner.businessId);
    });

    test('a token made from the new key can regenerate again, and then dies with that key', async () => {
      const token = await accessToken({ apiKey: newKey, apiSecret: owner.apiSecret });
      const again = await server.request('POST', REGENERATE, { headers: withBearer(token) });
      expect(again.status).toBe(200);
      expect(again.body.data.apiKey).not.toBe(newKey);
      expect((await server.request('GET', CONFIG, { headers: withBearer(token) })).status).toBe(401);
      expect((await server.request('GET', CONFIG, { headers: withKey(newKey) })).status).toBe(401);
      expect((await server.request('GET', CONFIG, { headers: withKey(again.body.data.apiKey) })).status).toBe(200);
    });

    test('regenerate-api-key without credentials answers 401', async () => {
      const response = await server.request('POST', REGENERATE);
      expect(response.status).toBe(401);
      expect(response.body).toEqual(unauthorizedEnvelope);
    });

    test('regenerating with live credentials replaces the live key only (bk_live_) and leaves the test key working', async () => {
      const business = await server.signUp();
      const live = await liveCredentialsOf(business);
      const response = await server.request('POST', REGENERATE, { headers: withKey(live.apiKey) });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ apiKey: expect.stringMatching(/^bk_live_/), mode: 'live' });
      expect((await server.request('GET', CONFIG, { headers: withKey(live.apiKey) })).status).toBe(401);
      expect((await server.request('GET', CONFIG, { headers: withKey(business.apiKey) })).status).toBe(200);
      const liveConfig = await server.request('GET', CONFIG, { headers: withKey(response.body.data.apiKey) });
      expect(liveConfig.body.data.livemode).toBe(true);
    });
  });

  describe('keys are stored only as SHA-256 hashes and secrets only encrypted', () => {
    test('no column of api_credentials holds a plain key or a plain secret, and key_hash is the SHA-256 hex of the key', async () => {
      const business = await server.signUp();
      const live = await liveCredentialsOf(business);
      const regenerated = await server.request('POST', REGENERATE, { headers: withKey(business.apiKey) });
      const testKey = regenerated.body.data.apiKey as string;
      const plain = [business.apiKey, testKey, business.apiSecret, live.apiKey, live.apiSecret];
      // The random part alone must not be stored either (e.g. with the prefix cut off).
      const randomParts = plain.map((value) => value.slice(8));

      const rows: Array<{ livemode: boolean; key_hash: string; row: string }> = await server.runtime.dataSource.query(
        'SELECT livemode, key_hash, row_to_json(c)::text AS row FROM api_credentials c WHERE business_id = $1 ORDER BY livemode',
        [business.businessId],
      );
      expect(rows).toHaveLength(2);
      for (const { row } of rows) {
        for (const value of [...plain, ...randomParts]) expect(row).not.toContain(value);
      }
      const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');
      expect(rows[0].key_hash).toBe(sha256(testKey));
      expect(rows[1].key_hash).toBe(sha256(live.apiKey));
    });

    test('the secret is kept as AES-256-GCM ciphertext, different for equal inputs and not a hash of the secret', async () => {
      const business = await server.signUp();
      const [row] = await server.runtime.dataSource.query(
        'SELECT secret_ciphertext FROM api_credentials WHERE business_id = $1',
        [business.businessId],
      );
      const sha256 = crypto.createHash('sha256').update(business.apiSecret).digest('hex');
      expect(row.secret_ciphertext).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
      expect(row.secret_ciphertext).not.toContain(sha256);
      // The secret still works, so the server can read it back (it also signs webhooks).
      expect((await exchange({ apiKey: business.apiKey, apiSecret: business.apiSecret })).status).toBe(200);
    });
  });

  describe('PUT /api/v1/business/config {webhookUrl}', () => {
    let business: TestMerchant;
    let live: Credentials;

    beforeAll(async () => {
      business = await server.signUp();
      live = await liveCredentialsOf(business);
    });

    const put = (apiKey: string, body: unknown) => server.request('PUT', CONFIG, { body, headers: withKey(apiKey) });
    const webhookUrlOf = async (apiKey: string) =>
      (await server.request('GET', CONFIG, { headers: withKey(apiKey) })).body.data.webhookUrl as string | null;

    test('a valid absolute URL is saved and returned by PUT and GET', async () => {
      const response = await put(business.apiKey, { webhookUrl: 'https://hooks.example.com/tessera?x=1' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        data: {
          businessId: business.businessId,
          businessName: expect.any(String),
          livemode: false,
          webhookUrl: 'https://hooks.example.com/tessera?x=1',
          updatedAt: expect.any(String),
        },
      });
      expect(await webhookUrlOf(business.apiKey)).toBe('https://hooks.example.com/tessera?x=1');
    });

    test.each([
      ['"not a url"', 'not a url'],
      ['"ftp://x" (not http or https)', 'ftp://x'],
      ['a relative path', '/relative/path'],
      ['"http://" (no host)', 'http://'],
      ['an empty string', ''],
      ['longer than 2048 characters', `https://example.com/${'a'.repeat(2048)}`],
    ])(
      'a webhookUrl that is %s is refused with 400 VALIDATION_ERROR and errors.webhookUrl, and nothing changes',
      async (_name, webhookUrl) => {
        await put(business.apiKey, { webhookUrl: 'https://before.example.com/hook' });
        const response = await put(business.apiKey, { webhookUrl });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          success: false,
          error: {
            code: 'VALIDATION_ERROR',
            message: expect.any(String),
            statusCode: 400,
            errors: { webhookUrl: [expect.any(String)] },
          },
        });
        expect(await webhookUrlOf(business.apiKey)).toBe('https://before.example.com/hook');
      },
    );

    test('a webhookUrl that is not a string is refused with 400 VALIDATION_ERROR', async () => {
      const response = await put(business.apiKey, { webhookUrl: 42 });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        errors: { webhookUrl: expect.any(Array) },
      });
    });

    test('webhookUrl null removes the URL', async () => {
      await put(business.apiKey, { webhookUrl: 'https://before.example.com/hook' });
      const response = await put(business.apiKey, { webhookUrl: null });
      expect(response.status).toBe(200);
      expect(response.body.data.webhookUrl).toBeNull();
      expect(await webhookUrlOf(business.apiKey)).toBeNull();
    });

    test('a body without webhookUrl is refused with 400 VALIDATION_ERROR, and nothing changes', async () => {
      await put(business.apiKey, { webhookUrl: 'https://before.example.com/hook' });
      for (const body of [{}, { url: 'https://other.example.com' }]) {
        const response = await put(business.apiKey, body);
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({
          code: 'VALIDATION_ERROR',
          errors: { webhookUrl: expect.any(Array) },
        });
      }
      expect(await webhookUrlOf(business.apiKey)).toBe('https://before.example.com/hook');
    });

    test('a plain http URL is accepted with test credentials', async () => {
      const response = await put(business.apiKey, { webhookUrl: 'http://hooks.example.com/test' });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ livemode: false, webhookUrl: 'http://hooks.example.com/test' });
    });

    test('a plain http URL is refused with live credentials (key and token), and nothing changes', async () => {
      await put(live.apiKey, { webhookUrl: 'https://live.example.com/hook' });
      const byKey = await put(live.apiKey, { webhookUrl: 'http://live.example.com/hook' });
      const byToken = await server.request('PUT', CONFIG, {
        body: { webhookUrl: 'http://live.example.com/hook' },
        headers: withBearer(await accessToken(live)),
      });
      for (const response of [byKey, byToken]) {
        expect(response.status).toBe(400);
        expect(response.body.error).toEqual({
          code: 'VALIDATION_ERROR',
          message: expect.any(String),
          statusCode: 400,
          errors: { webhookUrl: [expect.stringMatching(/https/)] },
        });
      }
      expect(await webhookUrlOf(live.apiKey)).toBe('https://live.example.com/hook');
    });

    test('an https URL is accepted with live credentials', async () => {
      const response = await put(live.apiKey, { webhookUrl: 'https://live.example.com/accepted' });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ livemode: true, webhookUrl: 'https://live.example.com/accepted' });
    });
  });

  describe('test and live credentials of one business are isolated', () => {
    let business: TestMerchant;
    let live: Credentials;

    beforeAll(async () => {
      business = await server.signUp();
      live = await liveCredentialsOf(business);
    });

    const get = (apiKey: string, path: string) => server.request('GET', path, { headers: withKey(apiKey) });

    test('live credentials have the bk_live_ and bs_live_ prefixes and act in live mode, by key and by token', async () => {
      expect(live.apiKey).toMatch(/^bk_live_/);
      expect(live.apiSecret).toMatch(/^bs_live_/);
      const byKey = await get(live.apiKey, CONFIG);
      const byToken = await server.request('GET', CONFIG, { headers: withBearer(await accessToken(live)) });
      expect(byKey.body.data).toMatchObject({ businessId: business.businessId, livemode: true });
      expect(byToken.body.data).toMatchObject({ businessId: business.businessId, livemode: true });
    });

    test('the test secret does not open the live key, nor the live secret the test key', async () => {
      expect((await exchange({ apiKey: live.apiKey, apiSecret: business.apiSecret })).status).toBe(401);
      expect((await exchange({ apiKey: business.apiKey, apiSecret: live.apiSecret })).status).toBe(401);
    });

    test('a webhook URL set with test credentials is not visible with live credentials, and the reverse', async () => {
      await server.request('PUT', CONFIG, {
        body: { webhookUrl: 'https://test-only.example.com/hook' },
        headers: withKey(business.apiKey),
      });
      expect((await get(live.apiKey, CONFIG)).body.data.webhookUrl).toBeNull();

      await server.request('PUT', CONFIG, {
        body: { webhookUrl: 'https://live-only.example.com/hook' },
        headers: withKey(live.apiKey),
      });
      expect((await get(business.apiKey, CONFIG)).body.data.webhookUrl).toBe('https://test-only.example.com/hook');
      expect((await get(live.apiKey, CONFIG)).body.data.webhookUrl).toBe('https://live-only.example.com/hook');
    });

    test('test and live credentials see different wallets', async () => {
      const funded = await server.request('POST', FUND, {
        body: { currency: 'USD', amount: '10.00' },
        headers: withKey(business.apiKey),
      });
      expect(funded.status).toBe(201);
      const testWallets = (await get(business.apiKey, WALLETS)).body.data.items as Array<{
        id: string;
        livemode: boolean;
        balance: string;
      }>;
      const liveWallets = (await get(live.apiKey, WALLETS)).body.data.items as Array<{ id: string; livemode: boolean }>;
      expect(testWallets.length).toBeGreaterThan(0);
      expect(testWallets.every((wallet) => !wallet.livemode)).toBe(true);
      expect(liveWallets.every((wallet) => wallet.livemode)).toBe(true);
      const testIds = testWallets.map((wallet) => wallet.id);
      expect(liveWallets.filter((wallet) => testIds.includes(wallet.id))).toEqual([]);

      const fundedId = funded.body.data.wallet.id;
      expect((await get(live.apiKey, `${WALLETS}/${fundedId}`)).status).toBe(404);
      expect((await get(live.apiKey, `${WALLETS}/${fundedId}/entries`)).status).toBe(404);
      expect((await get(business.apiKey, `${WALLETS}/${fundedId}`)).status).toBe(200);
    });

    test('sandbox funding with live credentials is refused with 403 SANDBOX_ONLY and changes nothing', async () => {
      const ledgerOf = () =>
        server.runtime.dataSource.query(
          `SELECT a.id, a.livemode, a.balance::text,
                (SELECT count(*)::int FROM journal_entries e WHERE e.account_id = a.id) AS entries
         FROM ledger_accounts a WHERE a.business_id = $1 ORDER BY a.id`,
          [business.businessId],
        );
      const transactionsOf = () =>
        server.runtime.dataSource.query(
          'SELECT count(*)::int AS count FROM journal_transactions WHERE business_id = $1',
          [business.businessId],
        );
      const [ledgerBefore, transactionsBefore] = [await ledgerOf(), await transactionsOf()];

      const byKey = await server.request('POST', FUND, {
        body: { currency: 'USD', amount: '10.00' },
        headers: withKey(live.apiKey),
      });
      const byToken = await server.request('POST', FUND, {
        body: { currency: 'USD', amount: '10.00' },
        headers: withBearer(await accessToken(live)),
      });
      for (const response of [byKey, byToken]) {
        expect(response.status).toBe(403);
        expect(response.body).toEqual({
          success: false,
          error: { code: 'SANDBOX_ONLY', message: expect.any(String), statusCode: 403 },
        });
      }
      expect(await ledgerOf()).toEqual(ledgerBefore);
      expect(await transactionsOf()).toEqual(transactionsBefore);
      expect(
        (await get(live.apiKey, WALLETS)).body.data.items.filter(
          (wallet: { balance: string }) => wallet.balance !== '0.00',
        ),
      ).toEqual([]);
    });
  });
});
