import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Linter } from 'eslint';
import {
  GraphQLArgument,
  GraphQLField,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
} from 'graphql';
import { TestMerchant, TestServer, overSocket, startTestServer } from './support/harness';
import { RequestContext } from '../src/domain/shared/context';
import { apiKey, createRecipient, dashboard, fundWallet } from './support/payouts';

/**
 * The conventions GraphQL clients rely on (docs/graphql-api.md, "Conventions"): Relay's object
 * identification and connections, and mutations that take one input and answer a payload with
 * typed userErrors. The schema checks read schema.graphql, which test/graphql.test.ts keeps equal
 * to what the resolvers emit.
 */
const ROOT = path.resolve(__dirname, '..');
const SCHEMA_FILE = path.join(ROOT, 'schema.graphql');

/**
 * Root lists that stay lists: each is bounded by design, not by how much a business does.
 * Every other root list of objects is a connection.
 */
const BOUNDED_ROOT_LISTS: Record<string, string> = {
  wallets: 'one wallet per currency',
  walletLowBalanceThresholds: 'one threshold per currency',
  apiCredentials: 'one credential pair per mode',
  v1ApiKeys: 'one /v1 key per mode',
  collectionChannels: "the rail's channels, bounded per country",
  nodes: 'the ids asked for (at most 100)',
  operatorSanctionsLists: 'the official sanctions lists Tessera loads: at most one each of OFAC, UN and EU',
};

/**
 * Types with an `id` field that are not objects node(id:) can answer, with why (docs/graphql-api.md,
 * "Conventions"). Every other type with an id implements Node.
 */
const NOT_NODES: Record<string, string> = {
  CollectionChannel: "the rail provider's channel id: a provider's catalogue entry, not a Tessera object",
  TreasuryDeposit:
    'the ledger transaction of a sandbox deposit, answered once by the mutation and never read back alone',
  WalletEntry: "a line of a wallet's statement, numbered in the ledger; read through its wallet's entries",
};

describe('GraphQL conventions', () => {
  let schema: GraphQLSchema;
  beforeAll(() => {
    schema = buildSchema(fs.readFileSync(SCHEMA_FILE, 'utf8'));
  });

  describe('the schema', () => {
    test('graphql-schema-linter reports nothing on the relay, naming and description rules', () => {
      const cli = require.resolve('graphql-schema-linter/lib/cli.js');
      const rules = [
        'relay-connection-types-spec',
        'relay-connection-arguments-spec',
        'relay-page-info-spec',
        'types-are-capitalized',
        'fields-are-camel-cased',
        'enum-values-all-caps',
        'input-object-values-are-camel-cased',
        'defined-types-are-used',
        'descriptions-are-capitalized',
        'deprecations-have-a-reason',
        'types-have-descriptions',
        'fields-have-descriptions',
        'arguments-have-descriptions',
        'enum-values-have-descriptions',
        'input-object-values-have-descriptions',
      ];
      const run = spawnSync(process.execPath, [cli, SCHEMA_FILE, '--rules', rules.join(','), '--format', 'compact'], {
        encoding: 'utf8',
      });
      expect((run.stdout + run.stderr).trim()).toBe('');
      expect(run.status).toBe(0);
    });

    test('every description starts with a capital letter or a non-letter (the linter checks only object fields)', () => {
      const described: Array<[string, string | null | undefined]> = [];
      for (const type of Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith('__'))) {
        described.push([type.name, type.description]);
        if (isEnumType(type))
          type.getValues().forEach((value) => described.push([`${type.name}.${value.name}`, value.description]));
        if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
          for (const field of Object.values(type.getFields())) {
            described.push([`${type.name}.${field.name}`, field.description]);
            const args: readonly GraphQLArgument[] = 'args' in field ? field.args : [];
            args.forEach((arg) => described.push([`${type.name}.${field.name}(${arg.name})`, arg.description]));
          }
        }
      }
      expect(described.length).toBeGreaterThan(1_500);
      expect(
        described.filter(([, description]) => !description || /^[a-z]/.test(description)).map(([name]) => name),
      ).toEqual([]);
    });

    test("@graphql-eslint's relay rules report nothing but the edge of a documented non-node (WalletEntry)", () => {
      // @graphql-eslint 3 (4 needs Node 22 dependencies, docs/decisions.md) reads the schema from
      // context.parserServices, which ESLint 9 moved to context.sourceCode: each rule is given it.
      // require: the plugin is used untyped (its 3.x rule types are ESLint 8's).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const plugin = require('@graphql-eslint/eslint-plugin');
      const withParserServices = (rule: any) => ({
        ...rule,
        create: (context: any) =>
          rule.create(Object.create(context, { parserServices: { value: context.sourceCode.parserServices } })),
      });
      const relayRules = Object.fromEntries(
        Object.keys(plugin.configs.relay.rules).map((id) => [
          id.replace('@graphql-eslint/', ''),
          withParserServices(plugin.rules[id.replace('@graphql-eslint/', '')]),
        ]),
      );
      const linter = new Linter({ configType: 'flat' });
      const messages = linter.verify(
        fs.readFileSync(SCHEMA_FILE, 'utf8'),
        [
          {
            files: ['**/*.graphql'],
            plugins: { '@graphql-eslint': { rules: relayRules } },
            languageOptions: { parser: plugin, parserOptions: { schema: SCHEMA_FILE } },
            rules: {
              ...plugin.configs.relay.rules,
              // Two documented choices (docs/decisions.md): pages go forward only (first/after), and
              // lists that are not pages stay lists (userErrors, a bounded root list, a payout's events).
              '@graphql-eslint/relay-arguments': ['error', { includeBoth: false }],
              '@graphql-eslint/relay-edge-types': [
                'error',
                { withEdgeSuffix: true, shouldImplementNode: true, listTypeCanWrapOnlyEdgeType: false },
              ],
            },
          },
        ],
        SCHEMA_FILE,
      );
      expect(Object.keys(plugin.configs.relay.rules)).toEqual(
        expect.arrayContaining([
          '@graphql-eslint/relay-arguments',
          '@graphql-eslint/relay-connection-types',
          '@graphql-eslint/relay-edge-types',
          '@graphql-eslint/relay-page-info',
        ]),
      );
      // Reported at a type's name: the only findings are the edges of the documented non-nodes.
      const lines = fs.readFileSync(SCHEMA_FILE, 'utf8').split('\n');
      const found = messages.map(
        (message) =>
          `${lines[(message.line ?? 1) - 1].trim()} (${message.line}:${message.column}) ${message.ruleId}: ${message.message}`,
      );
      const edgesOfNotNodes = Object.keys(NOT_NODES)
        .filter((name) => schema.getType(`${name}Edge`))
        .map((name) =>
          expect.stringMatching(
            new RegExp(
              `^type ${name}Edge .*relay-edge-types: Edge type's field \`node\` must implement \`Node\` interface\\.$`,
            ),
          ),
        );
      expect(found).toEqual(edgesOfNotNodes);
      expect(edgesOfNotNodes).toHaveLength(1);
    });

    test('every object type with an id implements Node', () => {
      const node = schema.getType('Node');
      const withoutNode = Object.values(schema.getTypeMap())
        .filter((type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__'))
        .filter((type) => type.getFields().id && !(type.name in NOT_NODES))
        .filter((type) => !type.getInterfaces().some((implemented) => implemented === node))
        .map((type) => type.name);
      expect(withoutNode).toEqual([]);
    });

    test("PageInfo is Relay's, complete", () => {
      const pageInfo = schema.getType('PageInfo') as GraphQLObjectType;
      const fields = Object.fromEntries(
        Object.values(pageInfo.getFields()).map((field) => [field.name, String(field.type)]),
      );
      expect(fields).toEqual({
        hasNextPage: 'Boolean!',
        hasPreviousPage: 'Boolean!',
        startCursor: 'String',
        endCursor: 'String',
      });
    });

    test('every mutation takes one input, <Name>Input!, and answers <Name>Payload! with its userErrors', () => {
      const userError = schema.getType('UserError');
      const offending: string[] = [];
      for (const mutation of Object.values(schema.getMutationType()!.getFields())) {
        const name = mutation.name.charAt(0).toUpperCase() + mutation.name.slice(1);
        const args = mutation.args.map((arg) => `${arg.name}: ${String(arg.type)}`);
        if (args.length > 0 && (args.length !== 1 || args[0] !== `input: ${name}Input!`))
          offending.push(`${mutation.name}(${args.join(', ')})`);
        if (String(mutation.type) !== `${name}Payload!`) {
          offending.push(`${mutation.name}: ${String(mutation.type)}`);
          continue;
        }
        const payload = getNamedType(mutation.type) as GraphQLObjectType;
        const errors = payload.getFields().userErrors;
        const errorType = errors && getNamedType(errors.type);
        if (
          !errors ||
          String(errors.type) !== `[${String(errorType)}!]!` ||
          !isObjectType(errorType) ||
          !errorType.getInterfaces().includes(userError as never)
        ) {
          offending.push(`${mutation.name}: userErrors`);
        }
      }
      expect(offending).toEqual([]);
    });

    test('every root list of objects that can grow is a connection', () => {
      const lists = Object.values(schema.getQueryType()!.getFields())
        .filter((field) => {
          const type = field.type instanceof GraphQLNonNull ? field.type.ofType : field.type;
          return type instanceof GraphQLList;
        })
        .map((field) => field.name)
        .filter((name) => !(name in BOUNDED_ROOT_LISTS));
      expect(lists).toEqual([]);
    });
  });

  describe('over HTTP', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(async () => {
      await server.close();
    });

    const NODE =
      'query($id: ID!) { node(id: $id) { __typename id ... on Payout { status amount { amount currency } } } }';
    const NODES = 'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }';
    const CREATE = `mutation($input: CreatePayoutInput!) {
      createPayout(input: $input) { payout { id status } userErrors { __typename field message ... on PayoutUserError { code } } }
    }`;

    async function merchantWithPayout(): Promise<{ who: TestMerchant; payoutId: string; recipientId: string }> {
      const who = await server.signUp();
      await fundWallet(server, who, '100.00');
      const { id: recipientId } = await createRecipient(server, who);
      const response = await server.graphql(
        CREATE,
        { input: { recipientId, amount: '10.00', currency: 'USD' } },
        apiKey(who),
      );
      expect(response.body.data.createPayout.userErrors).toEqual([]);
      return { who, payoutId: response.body.data.createPayout.payout.id, recipientId };
    }

    const payoutRows = async (businessId: string) =>
      (
        await server.runtime.dataSource.query('SELECT count(*)::int AS n FROM payouts WHERE business_id = $1', [
          businessId,
        ])
      )[0].n as number;

    test("node(id:) answers an object of the caller's business and mode as its own query does; another business's, an unknown id and a malformed one are null", async () => {
      const mine = await merchantWithPayout();
      const theirs = await merchantWithPayout();
      const own = await server.graphql(NODE, { id: mine.payoutId }, apiKey(mine.who));
      expect(own.body).toEqual({
        data: {
          node: {
            __typename: 'Payout',
            id: mine.payoutId,
            status: 'CREATED',
            amount: { amount: '10.00', currency: 'USD' },
          },
        },
      });
      const direct = await server.graphql(
        'query($id: ID!) { payout(id: $id) { id status amount { amount currency } } }',
        { id: mine.payoutId },
        apiKey(mine.who),
      );
      expect(direct.body.data.payout).toEqual({
        id: mine.payoutId,
        status: 'CREATED',
        amount: { amount: '10.00', currency: 'USD' },
      });

      for (const id of [theirs.payoutId, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
        expect((await server.graphql(NODE, { id }, apiKey(mine.who))).body).toEqual({ data: { node: null } });
      }
      // The same business's live mode does not see a test-mode object either.
      const live = await server.liveKeyOf(mine.who);
      expect((await server.graphql(NODE, { id: mine.payoutId }, { 'x-api-key': live })).body).toEqual({
        data: { node: null },
      });
    });

    test('nodes(ids:) answers in the order asked, null where the caller may not see; more than 100 ids is a validation error; no credential is UNAUTHENTICATED', async () => {
      const mine = await merchantWithPayout();
      const theirs = await merchantWithPayout();
      const response = await server.graphql(
        NODES,
        { ids: [theirs.payoutId, mine.payoutId, 'x', mine.payoutId] },
        apiKey(mine.who),
      );
      expect(response.body).toEqual({
        data: {
          nodes: [null, { __typename: 'Payout', id: mine.payoutId }, null, { __typename: 'Payout', id: mine.payoutId }],
        },
      });

      const tooMany = await server.graphql(
        NODES,
        { ids: Array.from({ length: 101 }, () => mine.payoutId) },
        apiKey(mine.who),
      );
      expect(tooMany.body.errors![0].extensions).toMatchObject({
        domainCode: 'VALIDATION_ERROR',
        errors: { ids: [expect.any(String)] },
      });
      const anonymous = await server.graphql(NODE, { id: mine.payoutId });
      expect(anonymous.body.errors![0].extensions.code).toBe('UNAUTHENTICATED');
    });

    test("a refused mutation answers userErrors with the field path and the area's code, and writes nothing", async () => {
      const { who, recipientId } = await merchantWithPayout();
      const invalid = await server.graphql(
        CREATE,
        { input: { recipientId, amount: '-5', currency: 'USD' } },
        apiKey(who),
      );
      expect(invalid.body.errors).toBeUndefined();
      expect(invalid.body.data.createPayout).toEqual({
        payout: null,
        userErrors: [
          {
            __typename: 'PayoutUserError',
            field: ['input', 'amount'],
            message: expect.any(String),
            code: 'VALIDATION_ERROR',
          },
        ],
      });

      const broke = await server.graphql(
        CREATE,
        { input: { recipientId, amount: '5000.00', currency: 'USD' } },
        apiKey(who),
      );
      expect(broke.body.data.createPayout).toEqual({
        payout: null,
        userErrors: [
          { __typename: 'PayoutUserError', field: null, message: expect.any(String), code: 'INSUFFICIENT_FUNDS' },
        ],
      });
      expect(await payoutRows(who.businessId)).toBe(1);
    });

    test('an Idempotency-Key replays a stored userError (as REST replays its 422), but not a CONFLICT, which REST does not store either', async () => {
      const { who, recipientId, payoutId } = await merchantWithPayout();
      const keyed = (key: string) => ({ ...apiKey(who), 'idempotency-key': key });
      const broke = await server.graphql(
        CREATE,
        { input: { recipientId, amount: '5000.00', currency: 'USD' } },
        keyed('broke-1'),
      );
      expect(broke.body.data.createPayout.userErrors[0].code).toBe('INSUFFICIENT_FUNDS');
      await fundWallet(server, who, '10000.00');
      const replayed = await server.graphql(
        CREATE,
        { input: { recipientId, amount: '5000.00', currency: 'USD' } },
        keyed('broke-1'),
      );
      expect(replayed.body).toEqual(broke.body);
      expect(await payoutRows(who.businessId)).toBe(1);

      const CANCEL =
        'mutation($input: CancelPayoutInput!) { cancelPayout(input: $input) { payout { id status } userErrors { field message ... on PayoutUserError { code } } } }';
      expect(
        (await server.graphql(CANCEL, { input: { id: payoutId } }, apiKey(who))).body.data.cancelPayout.payout.status,
      ).toBe('CANCELLED');
      const conflict = await server.graphql(CANCEL, { input: { id: payoutId } }, keyed('cancel-1'));
      expect(conflict.body.data.cancelPayout.userErrors).toEqual([
        { field: null, message: expect.any(String), code: 'CONFLICT' },
      ]);
      // Not stored: no answer is kept under the key, so a retry is judged again.
      const stored = await server.runtime.dataSource.query(
        'SELECT state, response_body FROM idempotency_keys WHERE key = $1',
        ['cancel-1'],
      );
      expect(stored).toEqual([{ state: 'in_flight', response_body: null }]);
      const broke1 = await server.runtime.dataSource.query('SELECT state FROM idempotency_keys WHERE key = $1', [
        'broke-1',
      ]);
      expect(broke1).toEqual([{ state: 'completed' }]);
    });

    test('over a WebSocket the same rule holds: a CONFLICT userError under extensions.idempotencyKey is not stored', async () => {
      const { who, payoutId } = await merchantWithPayout();
      const CANCEL =
        'mutation($input: CancelPayoutInput!) { cancelPayout(input: $input) { payout { id status } userErrors { field message ... on PayoutUserError { code } } } }';
      expect(
        (await server.graphql(CANCEL, { input: { id: payoutId } }, apiKey(who))).body.data.cancelPayout.payout.status,
      ).toBe('CANCELLED');
      const socket = server.socket({ apiKey: who.apiKey });
      try {
        await socket.connected;
        const outcome = await overSocket(
          socket.client,
          CANCEL,
          { input: { id: payoutId } },
          { idempotencyKey: 'ws-cancel-1' },
        );
        expect(outcome.result?.data?.cancelPayout.userErrors).toEqual([
          { field: null, message: expect.any(String), code: 'CONFLICT' },
        ]);
      } finally {
        await socket.client.dispose();
      }
      const stored = await server.runtime.dataSource.query(
        'SELECT state, response_body FROM idempotency_keys WHERE key = $1',
        ['ws-cancel-1'],
      );
      expect(stored).toEqual([{ state: 'in_flight', response_body: null }]);
    });

    test("the per-business singletons are nodes by their <Type>:<key> ids: the own business's answers, another's and the other mode's are null", async () => {
      const { who } = await merchantWithPayout();
      const other = await server.signUp();
      const set = await server.graphql(
        'mutation($input: SetWalletLowBalanceThresholdInput!) { setWalletLowBalanceThreshold(input: $input) { userErrors { field } } }',
        { input: { currency: 'USD', threshold: '50.00' } },
        dashboard(who),
      );
      expect(set.body).toEqual({ data: { setWalletLowBalanceThreshold: { userErrors: [] } } });
      const ids = (
        await server.graphql(
          'query { sandboxClock { id } payoutPin { id } walletLowBalanceThresholds { id } }',
          {},
          apiKey(who),
        )
      ).body.data;
      const own = [ids.sandboxClock.id, ids.payoutPin.id, ids.walletLowBalanceThresholds[0].id];
      expect(own).toEqual([
        `SandboxClock:${who.businessId}`,
        `PayoutPinStatus:${who.businessId}`,
        `WalletLowBalanceThreshold:${who.businessId}:test:USD`,
      ]);
      const NODE_TYPES = 'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }';
      expect((await server.graphql(NODE_TYPES, { ids: own }, apiKey(who))).body.data.nodes).toEqual([
        { __typename: 'SandboxClock', id: own[0] },
        { __typename: 'PayoutPinStatus', id: own[1] },
        { __typename: 'WalletLowBalanceThreshold', id: own[2] },
      ]);
      expect((await server.graphql(NODE_TYPES, { ids: own }, apiKey(other))).body).toEqual({
        data: { nodes: [null, null, null] },
      });
      const live = await server.liveKeyOf(who);
      const fromLive = (await server.graphql(NODE_TYPES, { ids: own }, { 'x-api-key': live })).body;
      expect(fromLive.data.nodes[0]).toBeNull();
      expect(fromLive.data.nodes[2]).toBeNull();
    });

    /**
     * A connection's selection with its filter arguments (the nullable ones besides first/after) given
     * as null, an input object's fields each null, or left out; one level down, the nodes' own
     * connections (an endpoint's deliveries) the same way.
     */
    function connectionSelection(field: GraphQLField<unknown, unknown>, nulls: boolean, depth = 0): string {
      const filters = field.args.filter(
        (arg) => !['first', 'after'].includes(arg.name) && !(arg.type instanceof GraphQLNonNull),
      );
      const nullOf = (arg: GraphQLArgument) => {
        const type = getNamedType(arg.type);
        return isInputObjectType(type)
          ? `{ ${Object.keys(type.getFields())
              .map((name) => `${name}: null`)
              .join(', ')} }`
          : 'null';
      };
      const args = nulls && filters.length ? `(${filters.map((arg) => `${arg.name}: ${nullOf(arg)}`).join(', ')})` : '';
      const node = getNamedType(
        (getNamedType(field.type) as GraphQLObjectType).getFields().edges.type,
      ) as GraphQLObjectType;
      const nested =
        depth === 0
          ? connectionsOf(getNamedType(node.getFields().node.type) as GraphQLObjectType)
              .map((inner) => connectionSelection(inner, nulls, depth + 1))
              .join(' ')
          : '';
      return `${field.name}${args} { edges { cursor ${nested ? `node { ${nested} }` : ''} } }`;
    }
    const connectionsOf = (type: GraphQLObjectType) =>
      Object.values(type.getFields()).filter(
        (field) =>
          getNamedType(field.type).name.endsWith('Connection') &&
          field.args.every((arg) => !(arg.type instanceof GraphQLNonNull)),
      );

    test('every filter argument of a connection takes an explicit null as the filter left out (what a client sends for "any")', async () => {
      const { who } = await merchantWithPayout();
      await server.setTreasury(who.businessId, true);
      await server.graphql(
        'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { userErrors { code } } }',
        { input: { url: 'http://127.0.0.1:9/hook', events: ['*'] } },
        apiKey(who),
      );
      const operator = await server.runtime.core.operatorTokens.issue(
        RequestContext.system(server.runtime.dataSource, 'test'),
        { name: 'null filters' },
      );
      const roots = connectionsOf(schema.getQueryType()!);
      expect(roots.length).toBeGreaterThan(20);
      const answers = async (nulls: boolean) =>
        Promise.all(
          roots.map(async (field) => {
            const caller = field.name.startsWith('operator')
              ? { authorization: `Bearer ${operator.token}` }
              : dashboard(who);
            const { body } = await server.graphql(`{ ${connectionSelection(field, nulls)} }`, {}, caller);
            return { field: field.name, body };
          }),
        );
      const left = await answers(false);
      expect(left.filter(({ body }) => body.errors)).toEqual([]);
      expect(await answers(true)).toEqual(left);
    });

    test("pages say where they sit: startCursor is the first edge's, hasPreviousPage is true after a cursor", async () => {
      const { who, recipientId } = await merchantWithPayout();
      await server.graphql(CREATE, { input: { recipientId, amount: '1.00', currency: 'USD' } }, apiKey(who));
      const PAGE =
        'query($after: String) { payouts(first: 1, after: $after) { edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }';
      const first = (await server.graphql(PAGE, {}, apiKey(who))).body.data.payouts;
      expect(first.pageInfo).toEqual({
        hasNextPage: true,
        hasPreviousPage: false,
        startCursor: first.edges[0].cursor,
        endCursor: first.edges[0].cursor,
      });
      const second = (await server.graphql(PAGE, { after: first.pageInfo.endCursor }, apiKey(who))).body.data.payouts;
      expect(second.pageInfo).toEqual({
        hasNextPage: false,
        hasPreviousPage: true,
        startCursor: second.edges[0].cursor,
        endCursor: second.edges[0].cursor,
      });
    });
  });
});
