import { TestMerchant, TestServer, startTestServer, waitFor } from './support/harness';

/** The merchant webhook endpoint registry on the GraphQL face: same rules as REST, from the same service. */
describe('GraphQL webhook endpoint registry', () => {
  let server: TestServer;
  let a: TestMerchant;
  let b: TestMerchant;
  const auth = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });
  const CREATE = `mutation($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) { webhookEndpoint { id url events status description } userErrors { field message code } }
  }`;
  const LIST = '{ webhookEndpoints { edges { node { id url } } } }';
  const listOf = async (merchant: TestMerchant) =>
    (await server.graphql(LIST, {}, auth(merchant))).body.data.webhookEndpoints.edges.map(
      (edge: { node: unknown }) => edge.node,
    );

  beforeAll(async () => {
    server = await startTestServer();
    [a, b] = [await server.signUp(), await server.signUp()];
  });
  afterAll(async () => server.close());

  test('create, list, update and delete', async () => {
    const created = await server.graphql(
      CREATE,
      { input: { url: 'http://127.0.0.1:9/a', events: ['wallet.funded'], description: 'ops' } },
      auth(a),
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createWebhookEndpoint.userErrors).toEqual([]);
    const endpoint = created.body.data.createWebhookEndpoint.webhookEndpoint;
    expect(endpoint).toMatchObject({
      url: 'http://127.0.0.1:9/a',
      events: ['wallet.funded'],
      status: 'enabled',
      description: 'ops',
    });

    expect(await listOf(a)).toEqual([{ id: endpoint.id, url: endpoint.url }]);
    const updated = await server.graphql(
      'mutation($input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $input) { webhookEndpoint { events status } userErrors { code } } }',
      { input: { id: endpoint.id, events: ['*'], status: 'disabled' } },
      auth(a),
    );
    expect(updated.body.data.updateWebhookEndpoint).toEqual({
      webhookEndpoint: { events: ['*'], status: 'disabled' },
      userErrors: [],
    });
    const deleted = await server.graphql(
      'mutation($id: ID!) { deleteWebhookEndpoint(input: { id: $id }) { webhookEndpoint { id } } }',
      { id: endpoint.id },
      auth(a),
    );
    expect(deleted.body.data.deleteWebhookEndpoint.webhookEndpoint.id).toBe(endpoint.id);
    expect(await listOf(a)).toEqual([]);
  });

  test("WebhookEndpoint.deliveries lists that endpoint's deliveries only, filtered by status, and bad filters are BAD_USER_INPUT", async () => {
    const merchant = await server.signUp();
    const make = async (url: string) =>
      (await server.graphql(CREATE, { input: { url, events: ['wallet.funded'] } }, auth(merchant))).body.data
        .createWebhookEndpoint.webhookEndpoint.id as string;
    const [one, other] = [await make('http://127.0.0.1:9/one'), await make('http://127.0.0.1:9/other')];
    const funded = await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      headers: { 'x-api-key': merchant.apiKey },
      body: { currency: 'USD', amount: '4.00' },
    });
    expect(funded.status).toBe(201);
    const DELIVERIES = `query($id: ID!, $status: String) { webhookEndpoint(id: $id) {
      deliveries(first: 10, status: $status) { edges { node { eventType url status } } pageInfo { hasNextPage } } } }`;
    const deliveriesOf = async (id: string, status?: string) =>
      (await server.graphql(DELIVERIES, { id, status }, auth(merchant))).body;
    const listed = await waitFor(
      () => deliveriesOf(one),
      (body) => body.data?.webhookEndpoint.deliveries.edges.length === 1,
    );
    expect(listed.data.webhookEndpoint.deliveries).toEqual({
      edges: [{ node: { eventType: 'wallet.funded', url: 'http://127.0.0.1:9/one', status: 'pending' } }],
      pageInfo: { hasNextPage: false },
    });
    expect((await deliveriesOf(other)).data.webhookEndpoint.deliveries.edges).toEqual([
      { node: { eventType: 'wallet.funded', url: 'http://127.0.0.1:9/other', status: 'pending' } },
    ]);
    expect((await deliveriesOf(one, 'succeeded')).data.webhookEndpoint.deliveries.edges).toEqual([]);
    const bad = await deliveriesOf(one, 'lost');
    expect(bad.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  test('bad input is VALIDATION_ERROR userErrors on the input fields, and nothing is created', async () => {
    const response = await server.graphql(CREATE, { input: { url: 'not a url', events: [] } }, auth(a));
    expect(response.body.errors).toBeUndefined();
    const { webhookEndpoint, userErrors } = response.body.data.createWebhookEndpoint;
    expect(webhookEndpoint).toBeNull();
    expect(userErrors).toEqual(
      expect.arrayContaining([
        { field: ['input', 'url'], message: expect.any(String), code: 'VALIDATION_ERROR' },
        { field: ['input', 'events'], message: expect.any(String), code: 'VALIDATION_ERROR' },
      ]),
    );
    expect(userErrors.every((error: { code: string }) => error.code === 'VALIDATION_ERROR')).toBe(true);
    expect(await listOf(a)).toEqual([]);
  });

  test("another business's endpoint is NOT_FOUND for reads (an error) and for updates and deletes (a userError), and nothing changes", async () => {
    const created = await server.graphql(CREATE, { input: { url: 'http://127.0.0.1:9/b', events: ['*'] } }, auth(b));
    const id = created.body.data.createWebhookEndpoint.webhookEndpoint.id;
    const read = await server.graphql('query($id: ID!) { webhookEndpoint(id: $id) { id } }', { id }, auth(a));
    expect(read.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    for (const [name, mutation] of [
      [
        'updateWebhookEndpoint',
        'mutation($id: ID!) { updateWebhookEndpoint(input: { id: $id, status: "disabled" }) { webhookEndpoint { id } userErrors { field message code } } }',
      ],
      [
        'deleteWebhookEndpoint',
        'mutation($id: ID!) { deleteWebhookEndpoint(input: { id: $id }) { webhookEndpoint { id } userErrors { field message code } } }',
      ],
    ]) {
      const response = await server.graphql(mutation, { id }, auth(a));
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data[name]).toEqual({
        webhookEndpoint: null,
        userErrors: [{ field: null, message: 'Webhook endpoint not found', code: 'NOT_FOUND' }],
      });
    }
    const stillThere = await server.graphql('query($id: ID!) { webhookEndpoint(id: $id) { status } }', { id }, auth(b));
    expect(stillThere.body.data.webhookEndpoint.status).toBe('enabled');
  });

  test('a VIEWER may list endpoints but not create one', async () => {
    const viewer = await server.signUp();
    await server.addTeamMember(a, viewer, 'VIEWER');
    const headers = { ...auth(viewer), 'x-service-business-id': a.businessId };
    expect((await server.graphql(LIST, {}, headers)).body.errors).toBeUndefined();
    const refused = await server.graphql(CREATE, { input: { url: 'http://127.0.0.1:9/v', events: ['*'] } }, headers);
    expect(refused.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  test('webhookEndpoints pages newest first with first/after and a complete pageInfo', async () => {
    const merchant = await server.signUp();
    const ids: string[] = [];
    for (const path of ['p1', 'p2', 'p3']) {
      const created = await server.graphql(
        CREATE,
        { input: { url: `http://127.0.0.1:9/${path}`, events: ['*'] } },
        auth(merchant),
      );
      ids.push(created.body.data.createWebhookEndpoint.webhookEndpoint.id);
    }
    const PAGE =
      'query($after: String) { webhookEndpoints(first: 2, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }';
    const first = (await server.graphql(PAGE, {}, auth(merchant))).body.data.webhookEndpoints;
    expect(first.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([ids[2], ids[1]]);
    expect(first.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: first.edges[0].cursor,
      endCursor: first.edges[1].cursor,
    });
    const second = (await server.graphql(PAGE, { after: first.pageInfo.endCursor }, auth(merchant))).body.data
      .webhookEndpoints;
    expect(second.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([ids[0]]);
    expect(second.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: true,
      startCursor: second.edges[0].cursor,
      endCursor: second.edges[0].cursor,
    });
  });

  test('node(id:) answers an endpoint to its business in its mode, and null to another business or in the other mode', async () => {
    const created = await server.graphql(CREATE, { input: { url: 'http://127.0.0.1:9/node', events: ['*'] } }, auth(a));
    const id = created.body.data.createWebhookEndpoint.webhookEndpoint.id;
    const NODE = 'query($id: ID!) { node(id: $id) { __typename id ... on WebhookEndpoint { url } } }';
    expect((await server.graphql(NODE, { id }, auth(a))).body.data.node).toEqual({
      __typename: 'WebhookEndpoint',
      id,
      url: 'http://127.0.0.1:9/node',
    });
    expect((await server.graphql(NODE, { id }, auth(b))).body.data.node).toBeNull();
    expect((await server.graphql(NODE, { id }, { ...auth(a), 'x-service-mode': 'live' })).body.data.node).toBeNull();
  });
});
