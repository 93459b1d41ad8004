import crypto from 'node:crypto';
import { TestMerchant, TestServer, startDeliveringServer, waitFor } from './support/harness';
import { Receiver } from './support/receiver';

const LIST = '/api/v1/business/config/webhook-deliveries';
const redeliverPath = (id: string) => `${LIST}/${id}/redeliver`;
const GQL_FIELDS = 'id eventId eventType url status attemptCount requestBody partnerId';

/**
 * The business's own webhookUrl (PUT /api/v1/business/config): its deliveries are listed and
 * redelivered like a registered endpoint's, REST and GraphQL.
 */
describe('deliveries to the business webhookUrl', () => {
  let server: TestServer;
  const receiver = new Receiver();

  beforeAll(async () => {
    await receiver.start();
    server = await startDeliveringServer();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  const as = (merchant: TestMerchant | string) => ({
    'x-api-key': typeof merchant === 'string' ? merchant : merchant.apiKey,
  });
  const call = (who: TestMerchant | string, method: string, path: string, body?: unknown) =>
    server.request(method, path, { headers: as(who), ...(body === undefined ? {} : { body }) });
  const gql = (who: TestMerchant | string, query: string, variables: Record<string, unknown> = {}) =>
    server.graphql(query, variables, as(who));
  const pathFor = (name: string) => `/${name}-${crypto.randomBytes(3).toString('hex')}`;
  const configure = async (merchant: TestMerchant, webhookUrl: string | null) =>
    expect((await call(merchant, 'PUT', '/api/v1/business/config', { webhookUrl })).status).toBe(200);
  const fund = async (merchant: TestMerchant, amount: string) =>
    expect(
      (await call(merchant, 'POST', '/api/v1/business/sandbox/wallets/fund', { currency: 'USD', amount })).status,
    ).toBe(201);
  const rows = (businessId: string): Promise<Array<{ id: string; status: string; endpoint_id: string | null }>> =>
    server.runtime.dataSource.query(
      `SELECT id, status, endpoint_id FROM webhook_deliveries WHERE business_id = $1 ORDER BY created_at`,
      [businessId],
    );
  const settledRows = (businessId: string, count: number) =>
    waitFor(
      () => rows(businessId),
      (list) => list.length >= count && list.every((row) => ['succeeded', 'permanently_failed'].includes(row.status)),
    );
  const countAll = async () =>
    Number((await server.runtime.dataSource.query(`SELECT count(*) FROM webhook_deliveries`))[0].count);

  test("the webhookUrl's deliveries are listed like an endpoint's: { items, total, page, limit }, newest first, the same item shape, never an endpoint's", async () => {
    const merchant = await server.signUp();
    const [first, second] = [pathFor('url-1'), pathFor('url-2')];
    await configure(merchant, receiver.url(first));
    const endpoint = (
      await call(merchant, 'POST', '/api/v1/webhook-endpoints', {
        url: receiver.url(pathFor('endpoint')),
        events: ['*'],
      })
    ).body.data;
    await fund(merchant, '1.00');
    await fund(merchant, '2.00');
    // A new URL: the deliveries to the earlier one stay in the list.
    await configure(merchant, receiver.url(second));
    await fund(merchant, '3.00');
    await settledRows(merchant.businessId, 6);
    // A deleted endpoint's deliveries lose their endpointId; they are still not the webhookUrl's.
    expect((await call(merchant, 'DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(200);

    const response = await call(merchant, 'GET', LIST);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.data).sort()).toEqual(['items', 'limit', 'page', 'total']);
    expect(response.body.data).toMatchObject({ total: 3, page: 1, limit: 20 });
    const items = response.body.data.items;
    expect(items.map((item: any) => JSON.parse(item.requestBody).data.amount)).toEqual(['3.00', '2.00', '1.00']);
    expect(
      items.every((item: any) => item.endpointId === null && item.status === 'succeeded' && item.partnerId === null),
    ).toBe(true);
    expect(receiver.at(first)).toHaveLength(2);
    expect(receiver.at(second)).toHaveLength(1);

    // The same item shape as an endpoint's delivery list (read before the endpoint was deleted would be the same).
    const events = await call(merchant, 'GET', '/api/v1/events?limit=1');
    const endpointItem = events.body.data.items[0].deliveries.find((delivery: any) => delivery.id !== items[0].id);
    expect(Object.keys(items[0]).sort()).toEqual(Object.keys(endpointItem).sort());
    expect(items[0]).toEqual(events.body.data.items[0].deliveries.find((delivery: any) => delivery.id === items[0].id));

    const paged = await call(merchant, 'GET', `${LIST}?limit=2&page=2`);
    expect(paged.body.data).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(paged.body.data.items.map((item: any) => item.id)).toEqual([items[2].id]);
    expect((await call(merchant, 'GET', `${LIST}?status=permanently_failed`)).body.data).toMatchObject({
      items: [],
      total: 0,
    });
    expect((await call(merchant, 'GET', `${LIST}?eventType=wallet.funded&status=succeeded`)).body.data.total).toBe(3);
    expect((await call(merchant, 'GET', `${LIST}?eventType=payment.completed`)).body.data.total).toBe(0);
  });

  test('a bad query value is 400 VALIDATION_ERROR on that parameter', async () => {
    const merchant = await server.signUp();
    for (const [query, field] of [
      ['page=0', 'page'],
      ['limit=101', 'limit'],
      ['limit=x', 'limit'],
      ['status=done', 'status'],
      ['eventType=Wallet%20Funded', 'eventType'],
    ]) {
      const response = await call(merchant, 'GET', `${LIST}?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        statusCode: 400,
        errors: { [field]: expect.any(Array) },
      });
    }
  });

  test("only the caller's business and mode: another business and live credentials list none of them", async () => {
    const owner = await server.signUp();
    const stranger = await server.signUp();
    await configure(owner, receiver.url(pathFor('tenancy')));
    await fund(owner, '1.00');
    await settledRows(owner.businessId, 1);
    expect((await call(owner, 'GET', LIST)).body.data.total).toBe(1);
    expect((await call(stranger, 'GET', LIST)).body.data).toMatchObject({ items: [], total: 0 });
    const liveKey = await server.liveKeyOf(owner);
    expect((await call(liveKey, 'GET', LIST)).body.data).toMatchObject({ items: [], total: 0 });
    expect((await call('bk_test_nope', 'GET', LIST)).status).toBe(401);
  });

  test('a webhookUrl delivery is redelivered: 201, a new delivery of the same event with the same bytes, attempted at once', async () => {
    const merchant = await server.signUp();
    const path = pathFor('redeliver');
    receiver.program(path, [{ status: 500 }]);
    await configure(merchant, receiver.url(path));
    await fund(merchant, '4.00');
    const [failed] = await settledRows(merchant.businessId, 1);
    expect(failed.status).toBe('permanently_failed');

    const response = await call(merchant, 'POST', redeliverPath(failed.id));
    expect(response.status).toBe(201);
    const original = (await call(merchant, 'GET', `${LIST}?status=permanently_failed`)).body.data.items[0];
    expect(response.body.data).toMatchObject({
      eventId: original.eventId,
      endpointId: null,
      status: 'pending',
      attemptCount: 0,
      requestBody: original.requestBody,
    });
    expect(response.body.data.id).not.toBe(failed.id);
    const done = await settledRows(merchant.businessId, 2);
    expect(done.find((row) => row.id === response.body.data.id)?.status).toBe('succeeded');
    expect(receiver.at(path).map((arrival) => arrival.body)).toEqual([original.requestBody, original.requestBody]);
    const listed = (await call(merchant, 'GET', LIST)).body.data;
    expect(listed.items.map((item: any) => item.id)).toEqual([response.body.data.id, failed.id]);
  });

  test("redelivering anything but the caller's own webhookUrl delivery is 404 and creates nothing; a VIEWER may list but not redeliver", async () => {
    const owner = await server.signUp();
    const stranger = await server.signUp();
    await configure(owner, receiver.url(pathFor('owner')));
    const endpoint = (
      await call(owner, 'POST', '/api/v1/webhook-endpoints', {
        url: receiver.url(pathFor('owner-endpoint')),
        events: ['*'],
      })
    ).body.data;
    await fund(owner, '1.00');
    const deliveries = await settledRows(owner.businessId, 2);
    const toUrl = deliveries.find((row) => row.endpoint_id === null)!;
    const toEndpoint = deliveries.find((row) => row.endpoint_id === endpoint.id)!;
    const before = await countAll();

    for (const [who, id] of [
      [owner, toEndpoint.id],
      [owner, 'not-a-uuid'],
      [owner, '00000000-0000-4000-8000-000000000000'],
      [stranger, toUrl.id],
    ] as const) {
      const response = await call(who, 'POST', redeliverPath(id));
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    const liveKey = await server.liveKeyOf(owner);
    expect((await call(liveKey, 'POST', redeliverPath(toUrl.id))).status).toBe(404);

    const viewer = await server.signUp();
    await server.addTeamMember(owner, viewer, 'VIEWER');
    const headers = { authorization: `Bearer ${viewer.token}`, 'x-service-business-id': owner.businessId };
    expect((await server.request('GET', LIST, { headers })).body.data.total).toBe(1);
    expect((await server.request('POST', redeliverPath(toUrl.id), { headers })).status).toBe(403);
    expect(await countAll()).toBe(before);
  });

  test('GraphQL: webhookUrlDeliveries pages the same deliveries newest first, and redeliverWebhookUrlDelivery redelivers only them', async () => {
    const merchant = await server.signUp();
    const stranger = await server.signUp();
    await configure(merchant, receiver.url(pathFor('graphql')));
    const endpoint = (
      await call(merchant, 'POST', '/api/v1/webhook-endpoints', {
        url: receiver.url(pathFor('graphql-endpoint')),
        events: ['*'],
      })
    ).body.data;
    await fund(merchant, '1.00');
    await fund(merchant, '2.00');
    await fund(merchant, '3.00');
    const deliveries = await settledRows(merchant.businessId, 6);
    const rest = (await call(merchant, 'GET', LIST)).body.data.items;

    const query = `query($first: Int, $after: String, $status: String, $eventType: String) {
      webhookUrlDeliveries(first: $first, after: $after, status: $status, eventType: $eventType) {
        edges { cursor node { ${GQL_FIELDS} } } pageInfo { hasNextPage endCursor } } }`;
    const page1 = await gql(merchant, query, { first: 2 });
    expect(page1.body.errors).toBeUndefined();
    const connection = page1.body.data.webhookUrlDeliveries;
    expect(connection.edges.map((edge: any) => edge.node.id)).toEqual([rest[0].id, rest[1].id]);
    expect(connection.edges[0].node).toMatchObject({
      eventType: 'wallet.funded',
      status: 'succeeded',
      requestBody: rest[0].requestBody,
      partnerId: null,
    });
    expect(connection.pageInfo.hasNextPage).toBe(true);
    const page2 = await gql(merchant, query, { first: 2, after: connection.pageInfo.endCursor });
    expect(page2.body.data.webhookUrlDeliveries.edges.map((edge: any) => edge.node.id)).toEqual([rest[2].id]);
    expect(page2.body.data.webhookUrlDeliveries.pageInfo.hasNextPage).toBe(false);
    // The cursor carries its filters.
    const mixed = await gql(merchant, query, { first: 2, after: connection.pageInfo.endCursor, status: 'succeeded' });
    expect(mixed.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    const badStatus = await gql(merchant, query, { status: 'done' });
    expect(badStatus.body.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { status: expect.any(Array) },
    });
    expect((await gql(stranger, query)).body.data.webhookUrlDeliveries.edges).toEqual([]);

    const redeliver = `mutation($id: ID!) {
      redeliverWebhookUrlDelivery(input: { id: $id }) { webhookDelivery { ${GQL_FIELDS} } userErrors { field message code } }
    }`;
    const before = await countAll();
    const toEndpoint = deliveries.find((row) => row.endpoint_id === endpoint.id)!;
    const notFound = {
      webhookDelivery: null,
      userErrors: [{ field: null, message: 'Webhook delivery not found', code: 'NOT_FOUND' }],
    };
    expect((await gql(merchant, redeliver, { id: toEndpoint.id })).body.data.redeliverWebhookUrlDelivery).toEqual(
      notFound,
    );
    expect((await gql(stranger, redeliver, { id: rest[0].id })).body.data.redeliverWebhookUrlDelivery).toEqual(
      notFound,
    );
    expect(await countAll()).toBe(before);
    const redelivered = await gql(merchant, redeliver, { id: rest[2].id });
    expect(redelivered.body.errors).toBeUndefined();
    expect(redelivered.body.data.redeliverWebhookUrlDelivery.webhookDelivery).toMatchObject({
      eventId: rest[2].eventId,
      status: 'pending',
      attemptCount: 0,
      requestBody: rest[2].requestBody,
    });
    expect(await countAll()).toBe(before + 1);
  });
});
