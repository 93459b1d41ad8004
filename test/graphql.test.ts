import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { getIntrospectionQuery } from 'graphql';
import { pendingSchemaChanges } from '../src/db/migration-generator';
import { createTesseraPubSub } from '../src/domain/events/pubsub';
import { buildTesseraSchema } from '../src/graphql/schema';
import { TestMerchant, TestServer, countStatements, startTestServer } from './support/harness';

/** GraphQL hygiene: error codes, depth and cost limits, CSRF, introspection, batching (design sections 1, 5). */

const FUND_MUTATION = `mutation($input: SandboxFundWalletInput!) { sandboxFundWallet(input: $input) { wallet { id } userErrors { field message code } } }`;

function expectNoStacktrace(body: unknown) {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/stacktrace|\bat [\w.<>]+ \(|\.ts:\d+|\.js:\d+|node_modules/i);
}

describe('GraphQL errors carry extensions.code and never a stack trace', () => {
  let server: TestServer;
  let merchant: TestMerchant;

  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.signUp();
  });
  afterAll(async () => server.close());

  const auth = () => ({ 'x-api-key': merchant.apiKey });

  test('no GraphQL answer may be cached: cache-control: no-store on data and on errors alike', async () => {
    const answered = await server.graphql('{ wallets { id } }', undefined, auth());
    expect(answered.body.errors).toBeUndefined();
    expect(answered.headers.get('cache-control')).toBe('no-store');
    const refused = await server.graphql('{ wallets { id } }');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const unparsable = await server.graphql('{ wallets { id ');
    expect(unparsable.status).toBe(400);
    expect(unparsable.headers.get('cache-control')).toBe('no-store');
  });

  test('no credential: UNAUTHENTICATED', async () => {
    const response = await server.graphql('{ wallets { id } }');
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        message: expect.any(String),
        extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }),
      }),
    ]);
    expectNoStacktrace(response.body);
  });

  test('a refused credential: UNAUTHENTICATED', async () => {
    const response = await server.graphql('{ wallets { id } }', undefined, { 'x-api-key': 'bk_test_not_a_real_key' });
    expect(response.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    expectNoStacktrace(response.body);
  });

  test('invalid input of a mutation: userErrors on the input field, with the code VALIDATION_ERROR', async () => {
    const response = await server.graphql(FUND_MUTATION, { input: { currency: 'USD', amount: 'ten dollars' } }, auth());
    expect(response.body).toEqual({
      data: {
        sandboxFundWallet: {
          wallet: null,
          userErrors: [{ field: ['input', 'amount'], message: expect.any(String), code: 'VALIDATION_ERROR' }],
        },
      },
    });
  });

  test('variables that do not match their type: BAD_USER_INPUT, status 400', async () => {
    const response = await server.graphql(FUND_MUTATION, { input: { currency: 'USD' } }, auth());
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    expectNoStacktrace(response.body);
  });

  test('a missing record: NOT_FOUND', async () => {
    const response = await server.graphql(
      'query($id: ID!) { wallet(id: $id) { id } }',
      { id: crypto.randomUUID() },
      auth(),
    );
    expect(response.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    expectNoStacktrace(response.body);
  });

  test('a syntax error: GRAPHQL_PARSE_FAILED, status 400', async () => {
    const response = await server.graphql('{ wallets { id ', undefined, auth());
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    expectNoStacktrace(response.body);
  });

  test('an unknown field: GRAPHQL_VALIDATION_FAILED, status 400', async () => {
    const response = await server.graphql('{ wallets { id secretColumn } }', undefined, auth());
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expectNoStacktrace(response.body);
  });

  test('an unexpected exception: INTERNAL_SERVER_ERROR with a generic message', async () => {
    const spy = jest
      .spyOn(server.runtime.core.wallets, 'wallets')
      .mockRejectedValueOnce(new Error('relation "ledger_accounts" does not exist at /srv/db.ts:12'));
    try {
      const response = await server.graphql('{ wallets { id } }', undefined, auth());
      expect(response.body.errors).toEqual([
        { message: 'An unexpected error occurred', path: ['wallets'], extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      ]);
      expectNoStacktrace(response.body);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('Query limits', () => {
  let shallow: TestServer;
  let cheap: TestServer;
  let merchant: TestMerchant;
  let cheapMerchant: TestMerchant;

  beforeAll(async () => {
    shallow = await startTestServer({ graphqlMaxDepth: 3 });
    cheap = await startTestServer({ graphqlMaxCost: 150 });
    merchant = await shallow.signUp();
    cheapMerchant = await cheap.signUp();
  });
  afterAll(async () => {
    await cheap.close();
    await shallow.close();
  });

  test('the default maximum depth is 10', () => {
    expect(loadConfig({}).graphqlMaxDepth).toBe(10);
  });

  test('GRAPHQL_MAX_DEPTH, GRAPHQL_MAX_COST and GRAPHQL_INTROSPECTION come from the environment given to loadConfig', () => {
    const saved = process.env.GRAPHQL_MAX_DEPTH;
    process.env.GRAPHQL_MAX_DEPTH = '99';
    try {
      expect(loadConfig({}).graphqlMaxDepth).toBe(10);
      const config = loadConfig({ GRAPHQL_MAX_DEPTH: '4', GRAPHQL_MAX_COST: '70', GRAPHQL_INTROSPECTION: 'false' });
      expect([config.graphqlMaxDepth, config.graphqlMaxCost, config.graphqlIntrospection]).toEqual([4, 70, false]);
    } finally {
      if (saved === undefined) delete process.env.GRAPHQL_MAX_DEPTH;
      else process.env.GRAPHQL_MAX_DEPTH = saved;
    }
  });

  test('a query within the depth limit runs', async () => {
    const response = await shallow.graphql('{ me { memberships { business { name } } } }', undefined, {
      authorization: `Bearer ${merchant.token}`,
    });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.me.memberships).toHaveLength(1);
  });

  test('a query deeper than the limit is refused before it runs', async () => {
    const response = await shallow.graphql(
      '{ me { memberships { user { memberships { business { name } } } } } }',
      undefined,
      { authorization: `Bearer ${merchant.token}` },
    );
    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors?.[0].message).toMatch(/exceeds maximum operation depth of 3/);
    expect(response.body.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  test('a query over the cost limit is refused before it runs', async () => {
    const spy = jest.spyOn(cheap.runtime.core.wallets, 'wallets');
    try {
      const response = await cheap.graphql(
        '{ wallets { entries(first: 100) { edges { node { id amount { amount } } } } } }',
        undefined,
        { 'x-api-key': cheapMerchant.apiKey },
      );
      expect(response.status).toBe(400);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors?.[0]).toEqual(
        expect.objectContaining({
          message: expect.stringMatching(/exceeds the maximum of 150/),
          extensions: expect.objectContaining({ code: 'QUERY_TOO_COSTLY', maxCost: 150 }),
        }),
      );
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  test('the same query with a small page runs', async () => {
    const response = await cheap.graphql('{ wallets { entries(first: 5) { edges { node { id } } } } }', undefined, {
      'x-api-key': cheapMerchant.apiKey,
    });
    expect(response.body.errors).toBeUndefined();
  });
});

describe('CSRF prevention and introspection', () => {
  let server: TestServer;
  let closed: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    closed = await startTestServer({ graphqlIntrospection: false });
  });
  afterAll(async () => {
    await closed.close();
    await server.close();
  });

  test('a GET query without a content type or preflight header is refused with 400', async () => {
    const response = await server.request('GET', `/graphql?query=${encodeURIComponent('{ __typename }')}`);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toMatch(/CSRF|preflight/i);
  });

  test('a GET query with the apollo-require-preflight header runs', async () => {
    const response = await server.request('GET', `/graphql?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { __typename: 'Query' } });
  });

  test('a mutation over GET is refused', async () => {
    const response = await server.request(
      'GET',
      `/graphql?query=${encodeURIComponent('mutation { createLiveCredentials { credentials { apiKey } } }')}`,
      {
        headers: { 'apollo-require-preflight': 'true' },
      },
    );
    expect(response.status).toBe(405);
  });

  test('introspection is enabled by default', async () => {
    const response = await server.graphql('{ __schema { queryType { name } } }');
    expect(response.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });

  test('the full introspection query that tools send fits the default depth and cost limits', async () => {
    const response = await server.graphql(getIntrospectionQuery());
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.__schema.queryType.name).toBe('Query');
  });

  test('introspection is refused when graphqlIntrospection is false', async () => {
    const response = await closed.graphql('{ __schema { queryType { name } } }');
    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(response.body.errors?.[0].message).toMatch(/introspection/i);
  });
});

describe('DataLoader batching', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  const MEMBERSHIPS = '{ me { memberships { role business { name } user { email } } } }';

  test('me { memberships { business user } } of a user with several businesses costs no query per row', async () => {
    const member = await server.signUp({ businessName: 'First Co' });
    const headers = { authorization: `Bearer ${member.token}` };
    const withOne = await countStatements(server, () => server.graphql(MEMBERSHIPS, undefined, headers));

    for (const businessName of ['Second Co', 'Third Co']) {
      const owner = await server.signUp({ businessName });
      await server.addTeamMember(owner, member, 'DEVELOPER');
    }

    let response: any;
    const withThree = await countStatements(server, async () => {
      response = await server.graphql(MEMBERSHIPS, undefined, headers);
    });
    expect(response.body.errors).toBeUndefined();
    const memberships = response.body.data.me.memberships;
    expect(memberships.map((m: any) => m.business.name).sort()).toEqual(['First Co', 'Second Co', 'Third Co']);
    expect(memberships.map((m: any) => m.user.email)).toEqual([member.email, member.email, member.email]);
    expect(memberships.map((m: any) => m.role).sort()).toEqual(['DEVELOPER', 'DEVELOPER', 'OWNER']);
    expect(withThree).toBe(withOne);
  });
});

describe('Schema drift', () => {
  test('schema.graphql is what the resolvers emit (run `npm run schema` after changing a type)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-schema-'));
    const emitted = path.join(dir, 'schema.graphql');
    const { pubSub, close } = createTesseraPubSub();
    try {
      await buildTesseraSchema(pubSub, emitted);
      const committed = fs.readFileSync(path.resolve(__dirname, '..', 'schema.graphql'), 'utf8');
      expect(fs.readFileSync(emitted, 'utf8')).toBe(committed);
    } finally {
      await close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the migrations build exactly what the entities describe (else: npm run migration:generate -- <Name>)', async () => {
    const server = await startTestServer();
    try {
      const { up } = await pendingSchemaChanges(server.runtime.dataSource);
      expect(up).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
