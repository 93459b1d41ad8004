import { TestMerchant, TestServer, startTestServer } from './support/harness';

/** The treasury webhook endpoint registry on the GraphQL face: same rules as REST, from the same service. */
describe('GraphQL treasury webhook endpoint registry', () => {
  let server: TestServer;
  let a: TestMerchant;
  let b: TestMerchant;
  const auth = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });
  const FIELDS =
    'id url events status signingSecretHint businessId partnerId description apiVersion createdAt updatedAt';
  const USER_ERRORS = 'userErrors { field message code }';
  const CREATE = `mutation($input: CreateTreasuryWebhookEndpointInput!) {
    createTreasuryWebhookEndpoint(input: $input) { endpointWithSecret { signingSecret endpoint { ${FIELDS} } } ${USER_ERRORS} } }`;
  const ROTATE = `mutation($id: ID!, $hours: Int) { rotateTreasuryWebhookEndpointSecret(input: { id: $id, gracePeriodHours: $hours }) {
    endpointWithSecret { signingSecret endpoint { id signingSecretHint } } ${USER_ERRORS} } }`;
  const UPDATE = `mutation($input: UpdateTreasuryWebhookEndpointInput!) {
    updateTreasuryWebhookEndpoint(input: $input) { treasuryWebhookEndpoint { id events status apiVersion } ${USER_ERRORS} } }`;
  const DELETE = `mutation($id: ID!) { deleteTreasuryWebhookEndpoint(input: { id: $id }) { treasuryWebhookEndpoint { id } ${USER_ERRORS} } }`;
  const LIST = `query($first: Int, $after: String) { treasuryWebhookEndpoints(first: $first, after: $after) {
    edges { cursor node { ${FIELDS} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
  const listed = async (merchant: TestMerchant) =>
    (await server.graphql(LIST, {}, auth(merchant))).body.data.treasuryWebhookEndpoints.edges.map(
      (edge: any) => edge.node,
    );

  /** The payload of a mutation that must succeed: no error, no userError. */
  const done = async (query: string, variables: Record<string, unknown>, merchant: TestMerchant) => {
    const response = await server.graphql(query, variables, auth(merchant));
    expect(response.body.errors).toBeUndefined();
    const [payload]: any[] = Object.values(response.body.data);
    expect(payload.userErrors).toEqual([]);
    return payload;
  };
  /** The userErrors of a mutation the caller can fix: no GraphQL error, nothing in the payload's object field. */
  const userErrorsOf = async (
    query: string,
    variables: Record<string, unknown>,
    merchant: TestMerchant,
  ): Promise<any[]> => {
    const response = await server.graphql(query, variables, auth(merchant));
    expect(response.body.errors).toBeUndefined();
    const [payload]: any[] = Object.values(response.body.data);
    expect(
      Object.entries(payload)
        .filter(([key]) => key !== 'userErrors')
        .map(([, value]) => value),
    ).toEqual([null]);
    return payload.userErrors;
  };

  const endpointRows = (businessId: string): Promise<any[]> =>
    server.runtime.dataSource.query(
      `SELECT * FROM webhook_endpoints WHERE business_id = $1 AND registry = 'treasury'`,
      [businessId],
    );

  beforeAll(async () => {
    server = await startTestServer();
    [a, b] = [await server.signUp(), await server.signUp()];
    await server.setTreasury(a.businessId, true);
    await server.setTreasury(b.businessId, true);
  });
  afterAll(async () => server.close());

  test('create answers the secret once; list, read, update, rotate and delete', async () => {
    const created = await done(
      CREATE,
      { input: { url: 'http://127.0.0.1:9/a', events: ['wallet.funded'], description: 'ops' } },
      a,
    );
    const { endpoint, signingSecret } = created.endpointWithSecret;
    expect(signingSecret).toMatch(/^whsk_[A-Za-z0-9_-]{43}$/);
    expect(endpoint).toEqual({
      id: expect.any(String),
      url: 'http://127.0.0.1:9/a',
      events: ['wallet.funded'],
      status: 'enabled',
      signingSecretHint: `whsk_…${signingSecret.slice(-4)}`,
      businessId: a.businessId,
      partnerId: a.businessId,
      description: 'ops',
      apiVersion: '2026-04-15',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const list = await server.graphql(LIST, {}, auth(a));
    expect(list.body.data.treasuryWebhookEndpoints.edges.map((edge: any) => edge.node)).toEqual([endpoint]);
    expect(JSON.stringify(list.body)).not.toContain(signingSecret.slice(5));
    const read = await server.graphql(
      `query($id: ID!) { treasuryWebhookEndpoint(id: $id) { ${FIELDS} } }`,
      { id: endpoint.id },
      auth(a),
    );
    expect(read.body.data.treasuryWebhookEndpoint).toEqual(endpoint);

    const updated = await done(
      UPDATE,
      { input: { id: endpoint.id, events: ['*'], status: 'disabled', apiVersion: '2026-04-15' } },
      a,
    );
    expect(updated.treasuryWebhookEndpoint).toEqual({
      id: endpoint.id,
      events: ['*'],
      status: 'disabled',
      apiVersion: '2026-04-15',
    });

    const next = (await done(ROTATE, { id: endpoint.id, hours: 0 }, a)).endpointWithSecret;
    expect(next.signingSecret).not.toBe(signingSecret);
    expect(next.endpoint).toEqual({ id: endpoint.id, signingSecretHint: `whsk_…${next.signingSecret.slice(-4)}` });
    expect(await endpointRows(a.businessId)).toEqual([
      expect.objectContaining({ previous_secret_ciphertext: null, secret_hint: next.endpoint.signingSecretHint }),
    ]);

    await done(ROTATE, { id: endpoint.id }, a);
    expect((await endpointRows(a.businessId))[0].previous_secret_ciphertext).toEqual(expect.any(String));

    const deleted = await done(DELETE, { id: endpoint.id }, a);
    expect(deleted.treasuryWebhookEndpoint.id).toBe(endpoint.id);
    expect(await listed(a)).toEqual([]);
  });

  test('treasuryWebhookEndpoints is a connection, newest first: pages of first after a cursor, with a complete pageInfo', async () => {
    const partner = await server.signUp();
    await server.setTreasury(partner.businessId, true);
    const ids: string[] = [];
    for (const path of ['p1', 'p2', 'p3'])
      ids.push(
        (await done(CREATE, { input: { url: `http://127.0.0.1:9/${path}`, events: ['*'] } }, partner))
          .endpointWithSecret.endpoint.id,
      );
    const first = (await server.graphql(LIST, { first: 2 }, auth(partner))).body.data.treasuryWebhookEndpoints;
    expect(first.edges.map((edge: any) => edge.node.id)).toEqual([ids[2], ids[1]]);
    expect(first.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: first.edges[0].cursor,
      endCursor: first.edges[1].cursor,
    });
    const rest = (await server.graphql(LIST, { first: 2, after: first.pageInfo.endCursor }, auth(partner))).body.data
      .treasuryWebhookEndpoints;
    expect(rest.edges.map((edge: any) => edge.node.id)).toEqual([ids[0]]);
    expect(rest.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: true,
      startCursor: rest.edges[0].cursor,
      endCursor: rest.edges[0].cursor,
    });
    // A merchant endpoint of the same business is not in the treasury list.
    await server.graphql(
      'mutation { createWebhookEndpoint(input: { url: "http://127.0.0.1:9/m", events: ["*"] }) { id } }',
      {},
      auth(partner),
    );
    expect((await listed(partner)).map((endpoint: any) => endpoint.id)).toEqual([ids[2], ids[1], ids[0]]);
  });

  test('node(id:) answers a treasury endpoint to its partner in its mode; null for another business and for the other mode', async () => {
    const partner = await server.signUp();
    await server.setTreasury(partner.businessId, true);
    const { endpoint } = (await done(CREATE, { input: { url: 'http://127.0.0.1:9/n', events: ['*'] } }, partner))
      .endpointWithSecret;
    const NODE =
      'query($id: ID!) { node(id: $id) { __typename id ... on TreasuryWebhookEndpoint { url signingSecretHint } } }';
    expect((await server.graphql(NODE, { id: endpoint.id }, auth(partner))).body.data.node).toEqual({
      __typename: 'TreasuryWebhookEndpoint',
      id: endpoint.id,
      url: 'http://127.0.0.1:9/n',
      signingSecretHint: endpoint.signingSecretHint,
    });
    expect((await server.graphql(NODE, { id: endpoint.id }, auth(b))).body.data.node).toBeNull();
    expect(
      (await server.graphql(NODE, { id: endpoint.id }, { 'x-api-key': await server.liveKeyOf(partner) })).body.data
        .node,
    ).toBeNull();
  });

  test('bad input is VALIDATION_ERROR userErrors on each input field, and nothing is written', async () => {
    const userErrors = await userErrorsOf(
      CREATE,
      { input: { url: 'not a url', events: [], apiVersion: '2020-01-01' } },
      a,
    );
    expect(userErrors.every((error) => error.code === 'VALIDATION_ERROR')).toBe(true);
    expect(userErrors.map((error) => error.field)).toEqual(
      expect.arrayContaining([
        ['input', 'url'],
        ['input', 'events'],
        ['input', 'apiVersion'],
      ]),
    );
    expect(userErrors).toContainEqual({
      field: ['input', 'apiVersion'],
      message: 'must be one of: 2026-04-15',
      code: 'VALIDATION_ERROR',
    });
    expect(await endpointRows(a.businessId)).toEqual([]);

    const id = (await done(CREATE, { input: { url: 'http://127.0.0.1:9/a', events: ['*'] } }, a)).endpointWithSecret
      .endpoint.id;
    const [before] = await endpointRows(a.businessId);
    for (const hours of [-1, 169]) {
      expect(await userErrorsOf(ROTATE, { id, hours }, a)).toEqual([
        { field: ['input', 'gracePeriodHours'], message: expect.any(String), code: 'VALIDATION_ERROR' },
      ]);
    }
    expect(await userErrorsOf(UPDATE, { input: { id, apiVersion: 'next' } }, a)).toEqual([
      { field: ['input', 'apiVersion'], message: expect.any(String), code: 'VALIDATION_ERROR' },
    ]);
    expect(await endpointRows(a.businessId)).toEqual([before]);
    await done(DELETE, { id }, a);
  });

  test("another business's endpoint and a merchant endpoint are NOT_FOUND for reads, updates, rotations and deletes (userErrors for the mutations)", async () => {
    const created = await done(CREATE, { input: { url: 'http://127.0.0.1:9/b', events: ['*'] } }, b);
    const merchantEndpoint = await server.graphql(
      'mutation { createWebhookEndpoint(input: { url: "http://127.0.0.1:9/m", events: ["*"] }) { webhookEndpoint { id } } }',
      {},
      auth(a),
    );
    for (const id of [
      created.endpointWithSecret.endpoint.id,
      merchantEndpoint.body.data.createWebhookEndpoint.webhookEndpoint.id,
    ]) {
      const response = await server.graphql(
        'query($id: ID!) { treasuryWebhookEndpoint(id: $id) { id } }',
        { id },
        auth(a),
      );
      expect(response.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
      for (const [query, variables] of [
        [UPDATE, { input: { id, status: 'disabled' } }],
        [ROTATE, { id }],
        [DELETE, { id }],
      ] as const) {
        expect(await userErrorsOf(query, variables, a)).toEqual([
          { field: null, message: 'Treasury webhook endpoint not found', code: 'NOT_FOUND' },
        ]);
      }
    }
    expect(await listed(b)).toEqual([expect.objectContaining({ status: 'enabled' })]);
  });

  test('a business without the treasury product is FORBIDDEN on every operation, and nothing is written', async () => {
    const merchant = await server.signUp();
    for (const [query, variables] of [
      [LIST, {}],
      ['query($id: ID!) { treasuryWebhookEndpoint(id: $id) { id } }', { id: '00000000-0000-4000-8000-000000000000' }],
      [CREATE, { input: { url: 'http://127.0.0.1:9/x', events: ['*'] } }],
      [ROTATE, { id: '00000000-0000-4000-8000-000000000000' }],
      [DELETE, { id: '00000000-0000-4000-8000-000000000000' }],
      [UPDATE, { input: { id: '00000000-0000-4000-8000-000000000000', apiVersion: 'next' } }],
    ] as const) {
      const response = await server.graphql(query, variables, auth(merchant));
      expect(response.body.errors?.[0]).toMatchObject({
        message: 'The treasury product is not enabled for this business',
        extensions: { code: 'FORBIDDEN' },
      });
    }
    expect(await endpointRows(merchant.businessId)).toEqual([]);
  });

  test('deliveries carry partnerId on the GraphQL face too: the partner on treasury deliveries, null on merchant ones', async () => {
    const partner = await server.signUp();
    await server.setTreasury(partner.businessId, true);
    await server.graphql(CREATE, { input: { url: 'http://127.0.0.1:9/t', events: ['wallet.funded'] } }, auth(partner));
    await server.graphql(
      'mutation { createWebhookEndpoint(input: { url: "http://127.0.0.1:9/m", events: ["*"] }) { webhookEndpoint { id } } }',
      {},
      auth(partner),
    );
    const funded = await server.graphql(
      'mutation($input: SandboxFundWalletInput!) { sandboxFundWallet(input: $input) { wallet { id } } }',
      { input: { currency: 'USD', amount: '1.00' } },
      auth(partner),
    );
    expect(funded.body.errors).toBeUndefined();
    const events = await server.graphql(
      '{ events(first: 5) { edges { node { type deliveries { url partnerId } } } } }',
      {},
      auth(partner),
    );
    const [event] = events.body.data.events.edges;
    expect(event.node.type).toBe('wallet.funded');
    expect(event.node.deliveries).toEqual(
      expect.arrayContaining([
        { url: 'http://127.0.0.1:9/t', partnerId: partner.businessId },
        { url: 'http://127.0.0.1:9/m', partnerId: null },
      ]),
    );
    expect(event.node.deliveries).toHaveLength(2);
  });
});
