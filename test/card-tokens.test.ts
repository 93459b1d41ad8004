import { DomainError, ErrorCode } from '../src/domain/shared/errors';
import { redeemCardToken } from '../src/domain/tokens/card-token.service';
import { Mode } from '../src/domain/shared/modes';
import { CARDS, card, charge, enableCharging } from './support/charges';
import { TestMerchant, TestServer, codeIn, startTestServer } from './support/harness';

/** Card tokenisation for the browser SDK: publishable keys, POST /api/v1/tokens, charging a token. */
describe('card tokens and publishable keys', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  let publishableKey: string;

  const publishableKeyOf = async (who: TestMerchant, mode = 'TEST'): Promise<string> => {
    const response = await server.graphql(
      '{ apiCredentials { mode publishableKey } }',
      {},
      { authorization: `Bearer ${who.token}` },
    );
    return response.body.data.apiCredentials.find((credential: { mode: string }) => credential.mode === mode)
      .publishableKey;
  };
  const tokenize = (key: string, body: unknown = { card: card() }, headers: Record<string, string> = {}) =>
    server.request('POST', '/api/v1/tokens', { body, headers: { 'x-publishable-key': key, ...headers } });
  const newToken = async (key = publishableKey, number = CARDS.visa): Promise<string> => {
    const response = await tokenize(key, { card: card(number) });
    expect(response.status).toBe(201);
    return response.body.data.id;
  };
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a refusal');
      },
      (error: unknown) => error as DomainError,
    );

  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.signUp();
    publishableKey = await publishableKeyOf(merchant);
    await enableCharging(server, merchant);
  });
  afterAll(async () => server.close());

  test('every credential has a publishable key pk_test_… that regenerating the API key leaves unchanged', async () => {
    expect(publishableKey).toMatch(/^pk_test_[A-Za-z0-9_-]{32}$/);
    const regenerated = await server.request('POST', '/api/v1/business/regenerate-api-key', {
      headers: { 'x-api-key': merchant.apiKey },
    });
    expect(regenerated.status).toBe(200);
    merchant.apiKey = regenerated.body.data.apiKey;
    expect(await publishableKeyOf(merchant)).toBe(publishableKey);
  });

  test('live credentials come with a pk_live_… key; confirmSignUp returns the test one', async () => {
    const owner = await server.signUp();
    const email = `pk-${Date.now()}@example.com`;
    const started = await server.graphql(
      'mutation($input: SignUpInput!) { signUp(input: $input) { pendingSignUp { signUpToken } } }',
      { input: { email, password: 'correct horse battery', name: 'P', businessName: 'P Co' } },
    );
    const signedUp = await server.graphql(
      'mutation($t: String!, $c: String!) { confirmSignUp(input: { signUpToken: $t, code: $c }) { account { testCredentials { publishableKey } } } }',
      { t: started.body.data.signUp.pendingSignUp.signUpToken, c: codeIn((await server.mailTo(email))[0]) },
    );
    expect(signedUp.body.data.confirmSignUp.account.testCredentials.publishableKey).toMatch(/^pk_test_/);
    const live = await server.graphql(
      'mutation { createLiveCredentials { credentials { publishableKey } } }',
      {},
      { authorization: `Bearer ${owner.token}` },
    );
    expect(live.body.data.createLiveCredentials.credentials.publishableKey).toMatch(/^pk_live_/);
    expect(await publishableKeyOf(owner, 'LIVE')).toBe(live.body.data.createLiveCredentials.credentials.publishableKey);
  });

  test('POST /api/v1/tokens makes a single-use card token that holds no card number', async () => {
    const response = await tokenize(publishableKey, { card: card(CARDS.gb) });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^tok_/),
        object: 'card_token',
        card: { brand: 'visa', last4: '0000', expiryMonth: 12, expiryYear: card().expiryYear, country: 'GB' },
        livemode: false,
        expiresAt: expect.any(String),
        createdAt: expect.any(String),
      },
    });
    const { expiresAt, createdAt } = response.body.data;
    expect(Date.parse(expiresAt) - Date.parse(createdAt)).toBe(15 * 60 * 1000);
    const [row] = await server.runtime.dataSource.query(
      `SELECT row_to_json(t)::text AS json FROM card_tokens t WHERE id = $1`,
      [response.body.data.id],
    );
    expect(row.json).not.toContain(CARDS.gb);
    expect(row.json).not.toContain('"123"');
  });

  test('Authorization: Bearer pk_… is accepted on the token route', async () => {
    const response = await server.request('POST', '/api/v1/tokens', {
      body: { card: card() },
      headers: { authorization: `Bearer ${publishableKey}` },
    });
    expect(response.status).toBe(201);
  });

  test('the token route answers the CORS preflight and sends Access-Control-Allow-Origin: *, errors included', async () => {
    const preflight = await server.request('OPTIONS', '/api/v1/tokens', {
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-publishable-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-publishable-key');
    const created = await tokenize(publishableKey, { card: card() }, { origin: 'https://shop.example' });
    expect(created.headers.get('access-control-allow-origin')).toBe('*');
    const refused = await tokenize('pk_test_nope', { card: card() }, { origin: 'https://shop.example' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('no other route answers cross-origin requests', async () => {
    const preflight = await server.request('OPTIONS', '/api/v1/business/customers', {
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const read = await server.request('GET', '/api/v1/business/config', {
      headers: { 'x-api-key': merchant.apiKey, origin: 'https://shop.example' },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('the publishable key is refused everywhere else: 403 on REST, GraphQL and subscriptions', async () => {
    const variants: Array<Record<string, string>> = [
      { 'x-publishable-key': publishableKey },
      { authorization: `Bearer ${publishableKey}` },
      { 'x-api-key': publishableKey },
    ];
    for (const headers of variants) {
      const config = await server.request('GET', '/api/v1/business/config', { headers });
      expect(config.status).toBe(403);
      expect(config.body.error.code).toBe('FORBIDDEN');
      const customers = await server.request('POST', '/api/v1/business/customers', {
        headers,
        body: { email: 'x@example.com' },
      });
      expect(customers.status).toBe(403);
      const graphql = await server.graphql('{ businessSettings { webhookUrl } }', {}, headers);
      expect(graphql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    }
    const customers = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS n FROM customers WHERE business_id = $1`,
      [merchant.businessId],
    );
    expect(customers[0].n).toBe(0);
    const client = server.subscribe({ apiKey: publishableKey });
    const closed = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: 'subscription { eventCreated { id } }' },
        { next: () => undefined, error: resolve, complete: () => resolve('complete') },
      );
    });
    expect(closed).not.toBe('complete');
  });

  test('the token route takes only a publishable key: none is 401, a secret key 403, an unknown one 401', async () => {
    expect((await server.request('POST', '/api/v1/tokens', { body: { card: card() } })).status).toBe(401);
    const secret = await server.request('POST', '/api/v1/tokens', {
      body: { card: card() },
      headers: { 'x-api-key': merchant.apiKey },
    });
    expect(secret.status).toBe(403);
    expect((await tokenize('pk_test_unknown')).status).toBe(401);
    expect((await tokenize('pk_live_unknown')).status).toBe(401);
  });

  test('bad card input is 400 VALIDATION_ERROR per field, and no token is made', async () => {
    const before = await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM card_tokens`);
    const bad = await tokenize(publishableKey, {
      card: { number: '4242424242424241', expiryMonth: 13, expiryYear: 2001, cvv: '12' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(bad.body.error.errors)).toEqual(expect.arrayContaining(['card.number', 'card.expiryMonth']));
    expect((await tokenize(publishableKey, {})).body.error.errors).toHaveProperty('card');
    expect((await tokenize(publishableKey, 'card')).status).toBe(400);
    const after = await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM card_tokens`);
    expect(after[0].n).toBe(before[0].n);
  });

  test('a token charges once: the charge records the tokenised card, and a second new charge with it is refused', async () => {
    const token = await newToken(publishableKey, CARDS.gb);
    const payment = await charge(server, merchant.apiKey, {
      amount: 10,
      currency: 'usd',
      token,
      email: 'buyer@example.com',
    });
    expect(payment).toMatchObject({ status: 'COMPLETED', cardLast4: '0000', cardCountry: 'GB' });
    const again = await refusal(
      charge(server, merchant.apiKey, { amount: 11, currency: 'usd', token, email: 'buyer@example.com' }),
    );
    expect(again).toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      fieldErrors: { token: [expect.stringContaining('already been used')] },
    });
  });

  test('repeating the same token charge within 60 seconds returns the same payment (the de-duplication key uses the token id)', async () => {
    const token = await newToken();
    const body = { amount: 12, currency: 'usd', token, email: 'repeat@example.com' };
    const first = await charge(server, merchant.apiKey, body);
    const second = await charge(server, merchant.apiKey, body);
    expect(second.id).toBe(first.id);
  });

  test('concurrent charges with one token: exactly one payment is made', async () => {
    const token = await newToken();
    const outcomes = await Promise.allSettled(
      [13, 14, 15, 16].map((amount) =>
        charge(server, merchant.apiKey, { amount, currency: 'usd', token, email: 'race@example.com' }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected')
        expect(outcome.reason).toMatchObject({
          code: ErrorCode.VALIDATION_ERROR,
          fieldErrors: { token: expect.any(Array) },
        });
    }
    const payments = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS n FROM payments WHERE email = 'race@example.com'`,
    );
    expect(payments[0].n).toBe(1);
  });

  test('an expired token is refused with 400 on token', async () => {
    const token = await newToken();
    await server.runtime.dataSource.query(
      `UPDATE card_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [token],
    );
    const refused = await refusal(
      charge(server, merchant.apiKey, { amount: 10, currency: 'usd', token, email: 'late@example.com' }),
    );
    expect(refused).toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      fieldErrors: { token: [expect.stringContaining('expired')] },
    });
  });

  test("an unknown token, or another business's, is refused with 400 on token and stays usable by its owner", async () => {
    const other = await server.signUp();
    await enableCharging(server, other);
    const othersToken = await newToken(await publishableKeyOf(other));
    for (const token of [othersToken, 'tok_doesnotexist', 'not-a-token']) {
      const refused = await refusal(
        charge(server, merchant.apiKey, { amount: 10, currency: 'usd', token, email: 'x@example.com' }),
      );
      expect(refused).toMatchObject({
        code: ErrorCode.VALIDATION_ERROR,
        fieldErrors: { token: [expect.stringContaining('not a card token')] },
      });
    }
    const payment = await charge(server, other.apiKey, {
      amount: 10,
      currency: 'usd',
      token: othersToken,
      email: 'x@example.com',
    });
    expect(payment.status).toBe('COMPLETED');
  });

  test('a test-mode token does not exist in live mode', async () => {
    const token = await newToken();
    const live = server.runtime.core.anonymousContext().forBusiness(merchant.businessId, Mode.LIVE);
    await expect(
      server.runtime.dataSource.transaction((manager) => redeemCardToken(live.withManager(manager), token)),
    ).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      fieldErrors: { token: [expect.stringContaining('not a card token')] },
    });
    const payment = await charge(server, merchant.apiKey, {
      amount: 10,
      currency: 'usd',
      token,
      email: 'test-mode@example.com',
    });
    expect(payment.status).toBe('COMPLETED');
  });

  test('a live publishable key cannot tokenise without a live acquirer (422), and nothing is stored', async () => {
    const owner = await server.signUp();
    const live = await server.graphql(
      'mutation { createLiveCredentials { credentials { publishableKey } } }',
      {},
      { authorization: `Bearer ${owner.token}` },
    );
    const response = await tokenize(live.body.data.createLiveCredentials.credentials.publishableKey);
    expect(response.status).toBe(422);
    const rows = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS n FROM card_tokens WHERE business_id = $1`,
      [owner.businessId],
    );
    expect(rows[0].n).toBe(0);
  });

  test('housekeeping purges tokens a day after they expired, used or not, and keeps the others', async () => {
    const [fresh, expired, longExpired] = [await newToken(), await newToken(), await newToken()];
    await server.runtime.dataSource.query(
      `UPDATE card_tokens SET expires_at = now() - interval '1 hour' WHERE id = $1`,
      [expired],
    );
    await server.runtime.dataSource.query(
      `UPDATE card_tokens SET expires_at = now() - interval '25 hours', used_at = now() - interval '25 hours' WHERE id = $1`,
      [longExpired],
    );
    const { core } = server.runtime;
    expect(await core.cardTokens.purgeExpired(core.anonymousContext())).toBeGreaterThanOrEqual(1);
    const left = await server.runtime.dataSource.query(`SELECT id FROM card_tokens WHERE id = ANY($1)`, [
      [fresh, expired, longExpired],
    ]);
    expect(left.map((row: { id: string }) => row.id).sort()).toEqual([fresh, expired].sort());
  });

  test('a charge takes exactly one of card, token or paymentMethodId', async () => {
    const token = await newToken();
    const both = await refusal(
      charge(server, merchant.apiKey, { amount: 10, currency: 'usd', card: card(), token, email: 'x@example.com' }),
    );
    expect(both).toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      fieldErrors: { token: [expect.stringContaining('exactly one')] },
    });
    const none = await refusal(
      charge(server, merchant.apiKey, { amount: 10, currency: 'usd', email: 'x@example.com' }),
    );
    expect(none).toMatchObject({ code: ErrorCode.VALIDATION_ERROR, fieldErrors: { card: expect.any(Array) } });
    const noEmail = await refusal(charge(server, merchant.apiKey, { amount: 10, currency: 'usd', token }));
    expect(noEmail).toMatchObject({ code: ErrorCode.VALIDATION_ERROR, fieldErrors: { email: expect.any(Array) } });
    const payment = await charge(server, merchant.apiKey, {
      amount: 10,
      currency: 'usd',
      token,
      email: 'still-usable@example.com',
    });
    expect(payment.status).toBe('COMPLETED');
  });
});
