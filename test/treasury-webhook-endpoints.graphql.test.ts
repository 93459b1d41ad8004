import { TestMerchant, TestServer, startTestServer } from './support/harness';

/** The treasury webhook endpoint registry on the GraphQL face: same rules as REST, from the same service. */
describe('GraphQL treasury webhook endpoint registry', () => {
  let server: TestServer;
  let a: TestMerchant;
  let b: TestMerchant;
  const auth = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });
  const FIELDS = 'id url events status signingSecretHint businessId partnerId description apiVersion createdAt updatedAt';
  const CREATE = `mutation($input: CreateTreasuryWebhookEndpointInput!) {
    createTreasuryWebhookEndpoint(input: $input) { signingSecret endpoint { ${FIELDS} } } }`;
  const ROTATE = `mutation($id: ID!, $hours: Int) {
    rotateTreasuryWebhookEndpointSecret(id: $id, gracePeriodHours: $hours) { signingSecret endpoint { id signingSecretHint } } }`;
  const LIST = `{ treasuryWebhookEndpoints { ${FIELDS} } }`;

  const endpointRows = (businessId: string): Promise<any[]> => server.runtime.dataSource.query(
    `SELECT * FROM webhook_endpoints WHERE business_id = $1 AND registry = 'treasury'`, [businessId]);

  beforeAll(async () => {
    server = await startTestServer();
    [a, b] = [await server.signUp(), await server.signUp()];
    await server.setTreasury(a.businessId, true);
    await server.setTreasury(b.businessId, true);
  });
  afterAll(async () => server.close());

  test('create answers the secret once; list, read, update, rotate and delete', async () => {
    const created = await server.graphql(CREATE, { input: { url: 'http://127.0.0.1:9/a', events: ['wallet.funded'], description: 'ops' } }, auth(a));
    expect(created.body.errors).toBeUndefined();
    const { endpoint, signingSecret } = created.body.data.createTreasuryWebhookEndpoint;
    expect(signingSecret).toMatch(/^whsk_[A-Za-z0-9_-]{43}$/);
    expect(endpoint).toEqual({
      id: expect.any(String), url: 'http://127.0.0.1:9/a', events: ['wallet.funded'], status: 'enabled',
      signingSecretHint: `whsk_…${signingSecret.slice(-4)}`, businessId: a.businessId, partnerId: a.businessId,
      description: 'ops', apiVersion: '2026-04-15', createdAt: expect.any(String), updatedAt: expect.any(String),
    });

    const listed = await server.graphql(LIST, {}, auth(a));
    expect(listed.body.data.treasuryWebhookEndpoints).toEqual([endpoint]);
    expect(JSON.stringify(listed.body)).not.toContain(signingSecret.slice(5));
    const read = await server.graphql(`query($id: ID!) { treasuryWebhookEndpoint(id: $id) { ${FIELDS} } }`, { id: endpoint.id }, auth(a));
    expect(read.body.data.treasuryWebhookEndpoint).toEqual(endpoint);

    const updated = await server.graphql(
      'mutation($id: ID!, $input: UpdateTreasuryWebhookEndpointInput!) { updateTreasuryWebhookEndpoint(id: $id, input: $input) { events status apiVersion } }',
      { id: endpoint.id, input: { events: ['*'], status: 'disabled', apiVersion: '2026-04-15' } }, auth(a));
    expect(updated.body.data.updateTreasuryWebhookEndpoint).toEqual({ events: ['*'], status: 'disabled', apiVersion: '2026-04-15' });

    const rotated = await server.graphql(ROTATE, { id: endpoint.id, hours: 0 }, auth(a));
    const next = rotated.body.data.rotateTreasuryWebhookEndpointSecret;
    expect(next.signingSecret).not.toBe(signingSecret);
    expect(next.endpoint).toEqual({ id: endpoint.id, signingSecretHint: `whsk_…${next.signingSecret.slice(-4)}` });
    expect(await endpointRows(a.businessId)).toEqual([expect.objectContaining({ previous_secret_ciphertext: null, secret_hint: next.endpoint.signingSecretHint })]);

    const graceful = await server.graphql(ROTATE, { id: endpoint.id }, auth(a));
    expect(graceful.body.errors).toBeUndefined();
    expect((await endpointRows(a.businessId))[0].previous_secret_ciphertext).toEqual(expect.any(String));

    const deleted = await server.graphql('mutation($id: ID!) { deleteTreasuryWebhookEndpoint(id: $id) { id } }', { id: endpoint.id }, auth(a));
    expect(deleted.body.data.deleteTreasuryWebhookEndpoint.id).toBe(endpoint.id);
    expect((await server.graphql(LIST, {}, auth(a))).body.data.treasuryWebhookEndpoints).toEqual([]);
  });

  test('bad input is BAD_USER_INPUT with per-field errors, and nothing is written', async () => {
    const response = await server.graphql(CREATE, { input: { url: 'not a url', events: [], apiVersion: '2020-01-01' } }, auth(a));
    expect(response.body.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT', errors: { url: expect.any(Array), events: expect.any(Array), apiVersion: ['must be one of: 2026-04-15'] },
    });
    expect(await endpointRows(a.businessId)).toEqual([]);

    const created = await server.graphql(CREATE, { input: { url: 'http://127.0.0.1:9/a', events: ['*'] } }, auth(a));
    const id = created.body.data.createTreasuryWebhookEndpoint.endpoint.id;
    const [before] = await endpointRows(a.businessId);
    for (const hours of [-1, 169]) {
      const refused = await server.graphql(ROTATE, { id, hours }, auth(a));
      expect(refused.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: { gracePeriodHours: [expect.any(String)] } });
    }
    const badUpdate = await server.graphql(
      'mutation($id: ID!) { updateTreasuryWebhookEndpoint(id: $id, input: { apiVersion: "next" }) { id } }', { id }, auth(a));
    expect(badUpdate.body.errors?.[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: { apiVersion: [expect.any(String)] } });
    expect(await endpointRows(a.businessId)).toEqual([before]);
    await server.graphql('mutation($id: ID!) { deleteTreasuryWebhookEndpoint(id: $id) { id } }', { id }, auth(a));
  });

  test("another business's endpoint and a merchant endpoint are NOT_FOUND for reads, updates, rotations and deletes", async () => {
    const created = await server.graphql(CREATE, { input: { url: 'http://127.0.0.1:9/b', events: ['*'] } }, auth(b));
    const merchantEndpoint = await server.graphql(
      'mutation { createWebhookEndpoint(input: { url: "http://127.0.0.1:9/m", events: ["*"] }) { webhookEndpoint { id } } }', {}, auth(a));
    for (const id of [created.body.data.createTreasuryWebhookEndpoint.endpoint.id, merchantEndpoint.body.data.createWebhookEndpoint.webhookEndpoint.id]) {
      for (const query of [
        'query($id: ID!) { treasuryWebhookEndpoint(id: $id) { id } }',
        'mutation($id: ID!) { updateTreasuryWebhookEndpoint(id: $id, input: { status: "disabled" }) { id } }',
        'mutation($id: ID!) { rotateTreasuryWebhookEndpointSecret(id: $id) { signingSecret } }',
        'mutation($id: ID!) { deleteTreasuryWebhookEndpoint(id: $id) { id } }',
      ]) {
        const response = await server.graphql(query, { id }, auth(a));
        expect(response.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
      }
    }
    const stillThere = await server.graphql(LIST, {}, auth(b));
    expect(stillThere.body.data.treasuryWebhookEndpoints).toEqual([expect.objectContaining({ status: 'enabled' })]);
  });

  test('a business without the treasury product is FORBIDDEN on every operation, and nothing is written', async () => {
    const merchant = await server.signUp();
    for (const [query, variables] of [
      [LIST, {}],
      ['query($id: ID!) { treasuryWebhookEndpoint(id: $id) { id } }', { id: '00000000-0000-4000-8000-000000000000' }],
      [CREATE, { input: { url: 'http://127.0.0.1:9/x', events: ['*'] } }],
      [ROTATE, { id: '00000000-0000-4000-8000-000000000000' }],
      ['mutation { deleteTreasuryWebhookEndpoint(id: "00000000-0000-4000-8000-000000000000") { id } }', {}],
    ] as const) {
      const response = await server.graphql(query, variables, auth(merchant));
      expect(response.body.errors?.[0]).toMatchObject({
        message: 'The treasury product is not enabled for this business', extensions: { code: 'FORBIDDEN' },
      });
    }
    expect(await endpointRows(merchant.businessId)).toEqual([]);
  });

  test('deliveries carry partnerId on the GraphQL face too: the partner on treasury deliveries, null on merchant ones', async () => {
    const partner = await server.signUp();
    await server.setTreasury(partner.businessId, true);
    await server.graphql(CREATE, { input: { url: 'http://127.0.0.1:9/t', events: ['wallet.funded'] } }, auth(partner));
    await server.graphql('mutation { createWebhookEndpoint(input: { url: "http://127.0.0.1:9/m", events: ["*"] }) { webhookEndpoint { id } } }', {}, auth(partner));
    const funded = await server.graphql('mutation($input: SandboxFundWalletInput!) { sandboxFundWallet(input: $input) { id } }',
      { input: { currency: 'USD', amount: '1.00' } }, auth(partner));
    expect(funded.body.errors).toBeUndefined();
    const events = await server.graphql('{ events(first: 5) { edges { node { type deliveries { url partnerId } } } } }', {}, auth(partner));
    const [event] = events.body.data.events.edges;
    expect(event.node.type).toBe('wallet.funded');
    expect(event.node.deliveries).toEqual(expect.arrayContaining([
      { url: 'http://127.0.0.1:9/t', partnerId: partner.businessId },
      { url: 'http://127.0.0.1:9/m', partnerId: null },
    ]));
    expect(event.node.deliveries).toHaveLength(2);
  });
});
