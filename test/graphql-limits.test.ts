import { Client } from 'graphql-ws';
import { parse, validate } from 'graphql';
import { createTesseraPubSub } from '../src/domain/events/pubsub';
import { buildTesseraSchema } from '../src/graphql/schema';
import { MUTATION_FIELD_COST, maxDepthRule } from '../src/graphql/limits';
import { TestMerchant, TestServer, capturedLog, startTestServer } from './support/harness';

/**
 * Findings 6, 7, 12, 14 and 15 of the security probe, GraphQL side. Every rule holds over HTTP
 * and over the WebSocket, which share the validation rules and operation checks of
 * src/graphql/shared/limits.ts.
 */

/** Runs one operation over graphql-ws; resolves with its result or with the errors it was refused with. */
function overSocket(
  client: Client,
  query: string,
  variables?: Record<string, unknown>,
): Promise<{ data?: any; errors?: any[] }> {
  return new Promise((resolve) => {
    let result: { data?: any; errors?: any[] } = {};
    client.subscribe(
      { query, variables },
      {
        next: (value) => {
          result = value as typeof result;
        },
        error: (errors) => resolve({ errors: Array.isArray(errors) ? errors : [errors] }),
        complete: () => resolve(result),
      },
    );
  });
}

const aliasedFunding = (count: number) =>
  `mutation { ${Array.from({ length: count }, (_, i) => `f${i}: sandboxFundWallet(input: { currency: "USD", amount: "1.00" }) { wallet { id } }`).join(' ')} }`;

async function journalCount(server: TestServer, businessId: string): Promise<number> {
  const [row] = await server.runtime.dataSource.query(
    'SELECT count(*)::int AS count FROM journal_transactions WHERE business_id = $1',
    [businessId],
  );
  return row.count;
}

describe('Finding 6: aliases cannot multiply work', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.signUp();
  });
  afterAll(async () => server.close());
  const auth = () => ({ 'x-api-key': merchant.apiKey });

  test('finding 6: 1,000 aliased mutations in one request are refused with QUERY_TOO_COSTLY before any resolver runs', async () => {
    const before = await journalCount(server, merchant.businessId);
    const spy = jest.spyOn(server.runtime.core.wallets, 'sandboxFund');
    try {
      const response = await server.graphql(aliasedFunding(1000), undefined, auth());
      expect(response.status).toBe(400);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors).toEqual([
        expect.objectContaining({
          message: 'The operation has 1000 mutation fields; at most 10 are allowed in one request',
          extensions: expect.objectContaining({
            code: 'QUERY_TOO_COSTLY',
            mutationFields: 1000,
            maxMutationFields: 10,
          }),
        }),
      ]);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    expect(await journalCount(server, merchant.businessId)).toBe(before);
  });

  test('finding 6: aliases spread through fragments count too', async () => {
    const response = await server.graphql(
      `mutation { ...A ...B } fragment A on Mutation { ${Array.from({ length: 6 }, (_, i) => `a${i}: regenerateApiKey(input: { mode: TEST }) { regeneratedApiKey { keyHint } }`).join(' ')} }
       fragment B on Mutation { ${Array.from({ length: 6 }, (_, i) => `b${i}: regenerateApiKey(input: { mode: TEST }) { regeneratedApiKey { keyHint } }`).join(' ')} }`,
      undefined,
      auth(),
    );
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0].extensions).toEqual(
      expect.objectContaining({ code: 'QUERY_TOO_COSTLY', mutationFields: 12 }),
    );
  });

  test('finding 6: the same request over the WebSocket is refused the same way, and nothing runs', async () => {
    const before = await journalCount(server, merchant.businessId);
    const result = await overSocket(server.subscribe({ apiKey: merchant.apiKey }), aliasedFunding(1000));
    expect(result.errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'QUERY_TOO_COSTLY' }) }),
    ]);
    expect(await journalCount(server, merchant.businessId)).toBe(before);
  });

  test('finding 6: each alias of a root query field is priced as a service call, so 500 of them exceed the cost limit', async () => {
    const query = `{ ${Array.from({ length: 500 }, (_, i) => `w${i}: wallets { id }`).join(' ')} }`;
    const response = await server.graphql(query, undefined, auth());
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]).toEqual(
      expect.objectContaining({
        message: 'Query cost 6000 exceeds the maximum of 5000',
        extensions: expect.objectContaining({ code: 'QUERY_TOO_COSTLY', cost: 6000 }),
      }),
    );
  });

  test('finding 6: a few mutations in one request still run', async () => {
    const response = await server.graphql(aliasedFunding(3), undefined, auth());
    expect(response.body.errors).toBeUndefined();
    expect(Object.keys(response.body.data)).toHaveLength(3);
  });
});

describe('Finding 6: a mutation field costs 100 against GRAPHQL_MAX_COST', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  beforeAll(async () => {
    server = await startTestServer({ graphqlMaxCost: 400 });
    merchant = await server.signUp();
  });
  afterAll(async () => server.close());

  test('finding 6: four mutations cost 4 x (100 + their selection) and exceed a cost limit of 400; three fit', async () => {
    expect(MUTATION_FIELD_COST).toBe(100);
    const refused = await server.graphql(aliasedFunding(4), undefined, { 'x-api-key': merchant.apiKey });
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]).toEqual(
      expect.objectContaining({
        // Each: 100, the payload 1, its wallet 1, the wallet's id 1.
        message: 'Query cost 412 exceeds the maximum of 400',
        extensions: expect.objectContaining({ code: 'QUERY_TOO_COSTLY', cost: 412 }),
      }),
    );
    const accepted = await server.graphql(aliasedFunding(3), undefined, { 'x-api-key': merchant.apiKey });
    expect(accepted.body.errors).toBeUndefined();
  });

  test('finding 6: an operation accepted once is still refused when sent again with variables that make it too costly, every time', async () => {
    const auth = { 'x-api-key': merchant.apiKey };
    const list = 'query Recent($first: Int) { payments(first: $first) { edges { node { id refunds { id } } } } }';
    const tooCostly = expect.objectContaining({ code: 'QUERY_TOO_COSTLY', cost: 510, maxCost: 400 });
    for (let round = 0; round < 2; round += 1) {
      const accepted = await server.graphql(list, { first: 5 }, auth);
      expect(accepted.body.errors).toBeUndefined();
      const refused = await server.graphql(list, { first: 100 }, auth);
      expect(refused.status).toBe(400);
      expect(refused.body.errors?.[0].extensions).toEqual(tooCostly);
    }
  });
});

describe('Finding 7: fragment cycles are a 400, never a crash', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.signUp();
  });
  afterAll(async () => server.close());

  const CYCLE = 'query { ...A } fragment A on Query { wallets { id } ...B } fragment B on Query { ...A }';

  test('finding 7: a fragment cycle, without authentication, answers 400 GRAPHQL_VALIDATION_FAILED', async () => {
    const response = await server.graphql(CYCLE);
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]).toEqual(
      expect.objectContaining({
        message: expect.stringMatching(/Cannot spread fragment "A" within itself/),
        extensions: expect.objectContaining({ code: 'GRAPHQL_VALIDATION_FAILED' }),
      }),
    );
  });

  test('finding 7: a self-spreading fragment and an unknown fragment answer 400 too', async () => {
    const self = await server.graphql('query { ...A } fragment A on Query { ...A }');
    expect(self.status).toBe(400);
    expect(self.body.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const unknown = await server.graphql('query { ...Missing }');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors?.[0].message).toMatch(/Unknown fragment "Missing"/);
  });

  test('finding 7: the same cycle over the WebSocket is refused with the validation error', async () => {
    const result = await overSocket(server.subscribe({ apiKey: merchant.apiKey }), CYCLE);
    expect(result.errors?.[0].message).toMatch(/Cannot spread fragment "A" within itself/);
  });

  test('finding 7: the depth rule itself terminates on cycles and unknown fragments', async () => {
    const { pubSub, close } = createTesseraPubSub();
    const schema = await buildTesseraSchema(pubSub);
    await close();
    for (const source of [CYCLE, 'query { ...Missing }', 'query { ...A } fragment A on Query { me { ...A } }']) {
      expect(() => validate(schema, parse(source), [maxDepthRule(3)])).not.toThrow();
    }
    const deep = validate(
      schema,
      parse(
        'query Deep { ...A } fragment A on Query { me { memberships { user { memberships { business { name } } } } } }',
      ),
      [maxDepthRule(3)],
    );
    expect(deep.map((error) => error.message)).toEqual(["'Deep' exceeds maximum operation depth of 3"]);
  });
});

describe('Finding 12: NUL bytes, lone surrogates and unstorable dates are BAD_USER_INPUT naming the field', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.signUp();
  });
  afterAll(async () => server.close());
  const auth = () => ({ 'x-api-key': merchant.apiKey });
  const CREATE = 'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { customer { id } } }';

  test('finding 12: a NUL byte in a variable is BAD_USER_INPUT naming the field, and nothing is written', async () => {
    const spy = jest.spyOn(server.runtime.core.customers, 'create');
    try {
      const response = await server.graphql(
        CREATE,
        { input: { email: 'nul@example.com', firstName: 'Ada\u0000' } },
        auth(),
      );
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([
        expect.objectContaining({
          extensions: expect.objectContaining({
            code: 'BAD_USER_INPUT',
            errors: { 'input.firstName': [expect.stringMatching(/NUL/)] },
          }),
        }),
      ]);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  test('finding 12: a lone surrogate inside a JSON variable is BAD_USER_INPUT naming its path', async () => {
    const response = await server.graphql(
      'mutation($input: CreateCheckoutSessionInput!) { createCheckoutSession(input: $input) { checkoutSession { id } } }',
      {
        input: {
          amount: '5.00',
          currency: 'usd',
          successUrl: 'https://shop.example.com',
          metadata: { notes: ['fine', 'bad \udbff'] },
        },
      },
      auth(),
    );
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0].extensions).toEqual(
      expect.objectContaining({
        code: 'BAD_USER_INPUT',
        errors: { 'input.metadata.notes.1': [expect.stringMatching(/surrogate/)] },
      }),
    );
  });

  test('finding 12: a NUL byte written inline in the document is BAD_USER_INPUT naming the argument', async () => {
    const response = await server.graphql(
      'mutation { createCustomer(input: { email: "inline@example.com", firstName: "A\\u0000" }) { customer { id } } }',
      undefined,
      auth(),
    );
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0].extensions).toEqual(
      expect.objectContaining({
        code: 'BAD_USER_INPUT',
        errors: { 'input.firstName': [expect.stringMatching(/NUL/)] },
      }),
    );
    const inList = await server.graphql(
      'mutation { createWebhookEndpoint(input: { url: "https://hooks.example.com/t", events: ["wallet.funded", "x\\u0000"] }) { webhookEndpoint { id } } }',
      undefined,
      auth(),
    );
    expect(inList.body.errors?.[0].extensions.errors).toEqual({ 'input.events.1': [expect.stringMatching(/NUL/)] });
  });

  test('finding 12: the same refusal over the WebSocket', async () => {
    const result = await overSocket(server.subscribe({ apiKey: merchant.apiKey }), CREATE, {
      input: { email: 'ws@example.com', lastName: '\u0000' },
    });
    expect(result.errors?.[0].extensions).toEqual(
      expect.objectContaining({ code: 'BAD_USER_INPUT', errors: { 'input.lastName': [expect.any(String)] } }),
    );
  });

  test.each([
    ['events(from:)', '{ events(from: "0000-01-01T00:00:00Z") { edges { cursor } } }', 'from'],
    ['payments(filter: { to })', '{ payments(filter: { to: "0000-06-01T00:00:00Z" }) { edges { cursor } } }', 'to'],
  ])(
    'finding 12: a date PostgreSQL cannot hold in %s is BAD_USER_INPUT naming the filter',
    async (_name, query, field) => {
      const response = await server.graphql(query, undefined, auth());
      expect(response.body.errors?.[0].extensions).toEqual(
        expect.objectContaining({
          code: 'BAD_USER_INPUT',
          errors: { [field]: [expect.stringMatching(/0001.*9999/)] },
        }),
      );
    },
  );
});

describe('Finding 14: unexpected GraphQL errors are logged', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  const { logStream, lines } = capturedLog();
  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'info' }, undefined, { logStream });
    merchant = await server.signUp();
  });
  afterAll(async () => server.close());

  test('finding 14: an unexpected error is logged at error level with the request id and operation name; the client sees no detail', async () => {
    const spy = jest
      .spyOn(server.runtime.core.wallets, 'wallets')
      .mockRejectedValueOnce(new Error('connection to the ledger shard failed'));
    try {
      const response = await server.request('POST', '/graphql', {
        headers: { 'x-api-key': merchant.apiKey, 'x-request-id': 'gql-unexpected-1' },
        body: { query: 'query Dashboard { wallets { id } }', operationName: 'Dashboard' },
      });
      expect(response.body.errors).toEqual([
        { message: 'An unexpected error occurred', path: ['wallets'], extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      ]);
      const logged = lines.filter((line) => line.reqId === 'gql-unexpected-1' && line.level === 50);
      expect(logged).toEqual([
        expect.objectContaining({
          msg: 'unexpected GraphQL error',
          operationName: 'Dashboard',
          path: 'wallets',
          err: expect.objectContaining({ message: 'connection to the ledger shard failed', stack: expect.any(String) }),
        }),
      ]);
    } finally {
      spy.mockRestore();
    }
  });

  test('finding 14: client errors (validation, domain errors) are not logged as server errors', async () => {
    await server.request('POST', '/graphql', {
      headers: { 'x-api-key': merchant.apiKey, 'x-request-id': 'gql-client-error-1' },
      body: {
        query: 'query($id: ID!) { wallet(id: $id) { id } }',
        variables: { id: '00000000-0000-4000-8000-000000000000' },
      },
    });
    expect(lines.filter((line) => line.reqId === 'gql-client-error-1' && line.level >= 50)).toEqual([]);
  });
});

describe('Finding 15: no "Did you mean" when introspection is off', () => {
  let open: TestServer;
  let closed: TestServer;
  let merchant: TestMerchant;
  beforeAll(async () => {
    open = await startTestServer();
    closed = await startTestServer({ graphqlIntrospection: false });
    merchant = await closed.signUp();
  });
  afterAll(async () => {
    await closed.close();
    await open.close();
  });

  test('finding 15: a misspelt field gets no suggestion when introspection is off (and still does in development)', async () => {
    const hidden = await closed.graphql('{ walets { id } }');
    expect(hidden.status).toBe(400);
    expect(hidden.body.errors?.[0].message).toBe('Cannot query field "walets" on type "Query".');
    const shown = await open.graphql('{ walets { id } }');
    expect(shown.body.errors?.[0].message).toMatch(/Did you mean "wallets"/);
  });

  test('finding 15: misspelt input fields and enum values in variables get no suggestion either', async () => {
    const field = await closed.graphql(
      'mutation($input: SignInInput!) { signIn(input: $input) { session { token } } }',
      { input: { emial: 'a@b.co', password: 'x' } },
    );
    expect(field.body.errors?.length).toBeGreaterThan(0);
    for (const error of field.body.errors ?? []) expect(error.message).not.toMatch(/Did you mean/);
    const value = await closed.graphql(
      'mutation($mode: Mode!) { regenerateApiKey(input: { mode: $mode }) { regeneratedApiKey { keyHint } } }',
      { mode: 'LIV' },
      { 'x-api-key': merchant.apiKey },
    );
    expect(value.body.errors?.[0].message).toMatch(/"LIV"/);
    expect(value.body.errors?.[0].message).not.toMatch(/Did you mean|LIVE/);
  });

  test('finding 15: the WebSocket hides suggestions too', async () => {
    const result = await overSocket(
      closed.subscribe({ apiKey: merchant.apiKey }),
      'subscription { walletBalanceUpdatd { walletId } }',
    );
    expect(result.errors?.[0].message).toMatch(/Cannot query field "walletBalanceUpdatd"/);
    expect(result.errors?.[0].message).not.toMatch(/Did you mean/);
  });
});
