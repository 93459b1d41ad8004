import { TestMerchant, TestServer, startTestServer } from './support/harness';

/** The event log (issue 3): REST `GET /api/v1/events[/{id}]` and GraphQL `events` / `event`. */
describe('event log', () => {
  let server: TestServer;
  let a: TestMerchant;
  let b: TestMerchant;

  const fund = (merchant: TestMerchant, amount: string) =>
    server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      headers: { 'x-api-key': merchant.apiKey },
      body: { currency: 'USD', amount },
    });
  const get = (merchant: TestMerchant, path: string) =>
    server.request('GET', path, { headers: { 'x-api-key': merchant.apiKey } });

  beforeAll(async () => {
    server = await startTestServer();
    [a, b] = [await server.signUp(), await server.signUp()];
    await server.request('PUT', '/api/v1/business/config', {
      headers: { 'x-api-key': a.apiKey },
      body: { webhookUrl: 'http://127.0.0.1:9/hooks' },
    });
    for (const amount of ['1.00', '2.00', '3.00']) expect((await fund(a, amount)).status).toBe(201);
    expect((await fund(b, '9.00')).status).toBe(201);
  });
  afterAll(async () => server.close());

  test("GET /api/v1/events lists the business's events newest first as { items, total, page, limit }, with their deliveries", async () => {
    const response = await get(a, '/api/v1/events?limit=2');
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(response.body.data.items.map((event: { data: { amount: string } }) => event.data.amount)).toEqual([
      '3.00',
      '2.00',
    ]);
    const [first] = response.body.data.items;
    expect(first).toMatchObject({ object: 'event', type: 'wallet.funded', livemode: false });
    expect(first.deliveries).toEqual([
      expect.objectContaining({
        eventId: first.id,
        eventType: 'wallet.funded',
        status: 'pending',
        attemptCount: 0,
        partnerId: null,
        payload: { event: 'wallet.funded', timestamp: first.createdAt, data: first.data },
      }),
    ]);
    const second = await get(a, '/api/v1/events?limit=2&page=2');
    expect(second.body.data.items.map((event: { data: { amount: string } }) => event.data.amount)).toEqual(['1.00']);
  });

  test('filters by type and time', async () => {
    expect((await get(a, '/api/v1/events?type=payment.completed')).body.data).toMatchObject({ items: [], total: 0 });
    expect((await get(a, '/api/v1/events?type=wallet.funded')).body.data.total).toBe(3);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await get(a, `/api/v1/events?from=${encodeURIComponent(future)}`)).body.data.total).toBe(0);
    expect((await get(a, `/api/v1/events?to=${encodeURIComponent(future)}`)).body.data.total).toBe(3);
  });

  test.each([
    ['page=0', 'page'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['from=yesterday', 'from'],
    ['type=Not%20A%20Type', 'type'],
  ])('bad query %s answers 400 VALIDATION_ERROR on %s', async (query, field) => {
    const response = await get(a, `/api/v1/events?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', errors: { [field]: expect.any(Array) } });
  });

  test('GET /api/v1/events/{id} returns the event; another business, mode or an unknown id answers 404', async () => {
    const [event] = (await get(a, '/api/v1/events?limit=1')).body.data.items;
    const own = await get(a, `/api/v1/events/${event.id}`);
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual(event);
    expect((await get(b, `/api/v1/events/${event.id}`)).status).toBe(404);
    expect((await get(a, '/api/v1/events/not-a-uuid')).status).toBe(404);
    const live = await server.graphql(
      'mutation { createLiveCredentials { credentials { apiKey } } }',
      {},
      { authorization: `Bearer ${a.token}` },
    );
    const liveKey = live.body.data.createLiveCredentials.credentials.apiKey;
    expect(
      (await server.request('GET', `/api/v1/events/${event.id}`, { headers: { 'x-api-key': liveKey } })).status,
    ).toBe(404);
    expect((await server.request('GET', '/api/v1/events', { headers: { 'x-api-key': liveKey } })).body.data.total).toBe(
      0,
    );
  });

  test('business B sees only its own events', async () => {
    const response = await get(b, '/api/v1/events');
    expect(response.body.data.total).toBe(1);
    expect(response.body.data.items[0].data.amount).toBe('9.00');
  });

  test('GraphQL events: cursor pages cover every event once, with deliveries; event(id) of another business is NOT_FOUND', async () => {
    const query = `query($after: String) { events(first: 2, after: $after, type: "wallet.funded") {
      edges { cursor node { id type mode data deliveries { eventId status attemptCount } } } pageInfo { hasNextPage endCursor } } }`;
    const headers = { 'x-api-key': a.apiKey };
    const first = await server.graphql(query, {}, headers);
    expect(first.body.errors).toBeUndefined();
    const page1 = first.body.data.events;
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const second = await server.graphql(query, { after: page1.pageInfo.endCursor }, headers);
    const page2 = second.body.data.events;
    expect(page2.pageInfo.hasNextPage).toBe(false);
    const amounts = [...page1.edges, ...page2.edges].map(
      (edge: { node: { data: { amount: string } } }) => edge.node.data.amount,
    );
    expect(amounts).toEqual(['3.00', '2.00', '1.00']);
    expect(page1.edges[0].node.deliveries).toEqual([
      { eventId: page1.edges[0].node.id, status: 'pending', attemptCount: 0 },
    ]);

    const other = await server.graphql(
      `query($id: ID!) { event(id: $id) { id } }`,
      { id: page1.edges[0].node.id },
      { 'x-api-key': b.apiKey },
    );
    expect(other.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const reused = await server.graphql(
      `query($after: String) { events(first: 2, after: $after) { edges { cursor } } }`,
      { after: page1.pageInfo.endCursor },
      headers,
    );
    expect(reused.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
