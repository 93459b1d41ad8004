import { TestMerchant, TestServer, startDeliveringServer, waitFor } from './support/harness';
import { Receiver } from './support/receiver';

/** Issue 3: manual redelivery of a delivery and replay of an event, REST and GraphQL. */
describe('manual redelivery and replay', () => {
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

  const as = (merchant: TestMerchant) => ({ 'x-api-key': merchant.apiKey });
  const deliveryRow = (id: string) =>
    server.runtime.dataSource
      .query(`SELECT status, attempt_count, endpoint_id FROM webhook_deliveries WHERE id = $1`, [id])
      .then((rows: Array<{ status: string; attempt_count: number; endpoint_id: string | null }>) => rows[0]);
  const settled = (id: string) =>
    waitFor(
      () => deliveryRow(id),
      (row) => !row || !['pending', 'failed'].includes(row.status),
      undefined,
      50,
    );

  async function fundedEvent(merchant: TestMerchant) {
    await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      headers: as(merchant),
      body: { currency: 'USD', amount: '1.00' },
    });
    const events = await server.request('GET', '/api/v1/events?limit=1', { headers: as(merchant) });
    return events.body.data.items[0] as { id: string; deliveries: Array<{ id: string }> };
  }

  test('a permanently failed delivery is redelivered as a new delivery that succeeds', async () => {
    const merchant = await server.signUp();
    receiver.program('/redeliver', [{ status: 500 }]);
    await server.request('PUT', '/api/v1/business/config', {
      headers: as(merchant),
      body: { webhookUrl: receiver.url('/redeliver') },
    });
    const event = await fundedEvent(merchant);
    const failedId = event.deliveries[0].id;
    expect(await settled(failedId)).toMatchObject({ status: 'permanently_failed', attempt_count: 1 });

    const response = await server.request('POST', `/api/v1/webhook-deliveries/${failedId}/redeliver`, {
      headers: as(merchant),
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ eventId: event.id, status: 'pending', attemptCount: 0 });
    expect(response.body.data.id).not.toBe(failedId);
    expect(await settled(response.body.data.id)).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    const arrivals = receiver.at('/redeliver');
    expect(arrivals.map((arrival) => arrival.headers['webhook-id'])).toEqual([failedId, response.body.data.id]);
    expect(arrivals[1].body).toBe(arrivals[0].body);
  });

  test('an event is replayed to a named endpoint, or to the webhookUrl; with neither it is 409', async () => {
    const merchant = await server.signUp();
    const event = await fundedEvent(merchant);
    const none = await server.request('POST', `/api/v1/events/${event.id}/replay`, { headers: as(merchant), body: {} });
    expect(none.status).toBe(409);

    const endpoint = await server.request('POST', '/api/v1/webhook-endpoints', {
      headers: as(merchant),
      body: { url: receiver.url('/replay-endpoint'), events: ['payment.completed'] },
    });
    expect(endpoint.status).toBe(201);
    const toEndpoint = await server.request('POST', `/api/v1/events/${event.id}/replay`, {
      headers: as(merchant),
      body: { endpointId: endpoint.body.data.id },
    });
    expect(toEndpoint.status).toBe(201);
    expect(toEndpoint.body.data.endpointId).toBe(endpoint.body.data.id);
    expect(await settled(toEndpoint.body.data.id)).toMatchObject({ status: 'succeeded' });
    expect(receiver.at('/replay-endpoint')).toHaveLength(1);

    await server.request('PUT', '/api/v1/business/config', {
      headers: as(merchant),
      body: { webhookUrl: receiver.url('/replay-url') },
    });
    const toUrl = await server.graphql(
      `mutation($id: ID!) { replayEvent(input: { eventId: $id }) { webhookDelivery { id status url } userErrors { code } } }`,
      { id: event.id },
      as(merchant),
    );
    expect(toUrl.body.errors).toBeUndefined();
    expect(toUrl.body.data.replayEvent.userErrors).toEqual([]);
    expect(toUrl.body.data.replayEvent.webhookDelivery).toMatchObject({
      status: 'pending',
      url: receiver.url('/replay-url'),
    });
    expect(await settled(toUrl.body.data.replayEvent.webhookDelivery.id)).toMatchObject({ status: 'succeeded' });
  });

  test("another business's delivery, event or endpoint answers 404 and creates nothing", async () => {
    const owner = await server.signUp();
    const stranger = await server.signUp();
    await server.request('PUT', '/api/v1/business/config', {
      headers: as(owner),
      body: { webhookUrl: receiver.url('/owner') },
    });
    const event = await fundedEvent(owner);
    const strangersEndpoint = await server.request('POST', '/api/v1/webhook-endpoints', {
      headers: as(stranger),
      body: { url: receiver.url('/stranger'), events: ['*'] },
    });
    const count = async () =>
      Number((await server.runtime.dataSource.query(`SELECT count(*) FROM webhook_deliveries`))[0].count);
    const before = await count();
    expect(
      (
        await server.request('POST', `/api/v1/webhook-deliveries/${event.deliveries[0].id}/redeliver`, {
          headers: as(stranger),
        })
      ).status,
    ).toBe(404);
    expect(
      (await server.request('POST', `/api/v1/events/${event.id}/replay`, { headers: as(stranger), body: {} })).status,
    ).toBe(404);
    expect(
      (
        await server.request('POST', `/api/v1/events/${event.id}/replay`, {
          headers: as(owner),
          body: { endpointId: strangersEndpoint.body.data.id },
        })
      ).status,
    ).toBe(404);
    const graphql = await server.graphql(
      `mutation($id: ID!) { redeliverWebhook(input: { id: $id }) { webhookDelivery { id } userErrors { field message code } } }`,
      { id: event.deliveries[0].id },
      as(stranger),
    );
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.redeliverWebhook).toEqual({
      webhookDelivery: null,
      userErrors: [{ field: null, message: 'Webhook delivery not found', code: 'NOT_FOUND' }],
    });
    const replayed = await server.graphql(
      `mutation($id: ID!) { replayEvent(input: { eventId: $id }) { webhookDelivery { id } userErrors { field message code } } }`,
      { id: event.id },
      as(stranger),
    );
    expect(replayed.body.data.replayEvent).toEqual({
      webhookDelivery: null,
      userErrors: [{ field: null, message: 'Event not found', code: 'NOT_FOUND' }],
    });
    expect(await count()).toBe(before);
  });

  test('bad input: a non-string endpointId is 400 VALIDATION_ERROR, unknown or malformed ids are 404; nothing is created', async () => {
    const merchant = await server.signUp();
    await server.request('PUT', '/api/v1/business/config', {
      headers: as(merchant),
      body: { webhookUrl: receiver.url('/bad') },
    });
    const event = await fundedEvent(merchant);
    const count = async () =>
      Number((await server.runtime.dataSource.query(`SELECT count(*) FROM webhook_deliveries`))[0].count);
    const before = await count();
    const typed = await server.request('POST', `/api/v1/events/${event.id}/replay`, {
      headers: as(merchant),
      body: { endpointId: 42 },
    });
    expect(typed.status).toBe(400);
    expect(typed.body.error).toMatchObject({ code: 'VALIDATION_ERROR', errors: { endpointId: expect.any(Array) } });
    for (const path of [
      '/api/v1/webhook-deliveries/not-a-uuid/redeliver',
      '/api/v1/events/not-a-uuid/replay',
      `/api/v1/webhook-deliveries/${event.id}/redeliver`,
    ]) {
      const response = await server.request('POST', path, { headers: as(merchant), body: {} });
      expect(response.status).toBe(404);
      expect(response.body.success).toBe(false);
    }
    expect(
      (
        await server.request('POST', `/api/v1/events/${event.id}/replay`, {
          headers: as(merchant),
          body: { endpointId: 'nope' },
        })
      ).status,
    ).toBe(404);
    expect(await count()).toBe(before);
  });
  test('GraphQL: replayEvent with no webhookUrl and no endpoint is a CONFLICT userError, and writes nothing', async () => {
    const merchant = await server.signUp();
    const event = await fundedEvent(merchant);
    const count = async () =>
      Number((await server.runtime.dataSource.query(`SELECT count(*) FROM webhook_deliveries`))[0].count);
    const before = await count();
    const response = await server.graphql(
      `mutation($id: ID!) { replayEvent(input: { eventId: $id }) { webhookDelivery { id } userErrors { field message code } } }`,
      { id: event.id },
      as(merchant),
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.replayEvent).toEqual({
      webhookDelivery: null,
      userErrors: [
        {
          field: null,
          message: 'No webhookUrl is set for this mode; name an endpointId to replay to',
          code: 'CONFLICT',
        },
      ],
    });
    expect(await count()).toBe(before);
  });

  test('GraphQL: node(id:) answers an event and its delivery to their business in their mode, and null otherwise', async () => {
    const merchant = await server.signUp();
    const stranger = await server.signUp();
    await server.request('PUT', '/api/v1/business/config', {
      headers: as(merchant),
      body: { webhookUrl: receiver.url('/node') },
    });
    const event = await fundedEvent(merchant);
    const NODE = 'query($id: ID!) { node(id: $id) { __typename id } }';
    for (const [type, id] of [
      ['Event', event.id],
      ['WebhookDelivery', event.deliveries[0].id],
    ]) {
      expect((await server.graphql(NODE, { id }, as(merchant))).body.data.node).toEqual({ __typename: type, id });
      expect((await server.graphql(NODE, { id }, as(stranger))).body.data.node).toBeNull();
      expect(
        (await server.graphql(NODE, { id }, { authorization: `Bearer ${merchant.token}`, 'x-service-mode': 'live' }))
          .body.data.node,
      ).toBeNull();
    }
  });
});
