import { TestMerchant, TestServer, startTestServer } from './support/harness';

/** The merchant webhook endpoint registry on the GraphQL face: same rules as REST, from the same service. */
describe('GraphQL webhook endpoint registry', () => {
  let server: TestServer;
  let a: TestMerchant;
  let b: TestMerchant;
  const auth = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });
  const CREATE = 'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { id url events status description } }';
  const LIST = '{ webhookEndpoints { id url } }';

  beforeAll(async () => {
    server = await startTestServer();
    [a, b] = [await server.signUp(), await server.signUp()];
  });
  afterAll(async () => server.close());

  test('create, list, update and delete', async () => {
    const created = await server.graphql(CREATE, { input: { url: 'http://127.0.0.1:9/a', events: ['wallet.funded'], description: 'ops' } }, auth(a));
    expect(created.body.errors).toBeUndefined();
    const endpoint = created.body.data.createWebhookEndpoint;
    expect(endpoint).toMatchObject({ url: 'http://127.0.0.1:9/a', events: ['wallet.funded'], status: 'enabled', description: 'ops' });

    expect((await server.graphql(LIST, {}, auth(a))).body.data.webhookEndpoints).toEqual([{ id: endpoint.id, url: endpoint.url }]);
    const updated = await server.graphql(
      'mutation($id: ID!, $input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(id: $id, input: $input) { events status } }',
      { id: endpoint.id, input: { events: ['*'], status: 'disabled' } }, auth(a));
    expect(updated.body.data.updateWebhookEndpoint).toEqual({ events: ['*'], status: 'disabled' });
    const deleted = await server.graphql('mutation($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }', { id: endpoint.id }, auth(a));
    expect(deleted.body.data.deleteWebhookEndpoint.id).toBe(endpoint.id);
    expect((await server.graphql(LIST, {}, auth(a))).body.data.webhookEndpoints).toEqual([]);
  });

  test('bad input is BAD_USER_INPUT with per-field errors, and nothing is created', async () => {
    const response = await server.graphql(CREATE, { input: { url: 'not a url', events: [] } }, auth(a));
    expect(response.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: { url: expect.any(Array), events: expect.any(Array) } });
    expect((await server.graphql(LIST, {}, auth(a))).body.data.webhookEndpoints).toEqual([]);
  });

  test("another business's endpoint is NOT_FOUND for reads, updates and deletes", async () => {
    const created = await server.graphql(CREATE, { input: { url: 'http://127.0.0.1:9/b', events: ['*'] } }, auth(b));
    const id = created.body.data.createWebhookEndpoint.id;
    for (const query of [
      'query($id: ID!) { webhookEndpoint(id: $id) { id } }',
      'mutation($id: ID!) { updateWebhookEndpoint(id: $id, input: { status: "disabled" }) { id } }',
      'mutation($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }',
    ]) {
      const response = await server.graphql(query, { id }, auth(a));
      expect(response.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
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
});
