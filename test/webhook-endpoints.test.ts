import crypto from 'node:crypto';
import { TestMerchant, TestServer, startDeliveringServer, waitFor } from './support/harness';
import { Receiver } from './support/receiver';

const DELIVERY_FIELDS = [
  'id',
  'endpointId',
  'eventId',
  'eventType',
  'payload',
  'status',
  'attemptCount',
  'createdAt',
  'updatedAt',
  'partnerId',
  'nextRetryAt',
  'lastAttemptAt',
  'responseStatus',
  'responseBody',
  'responseTimeMs',
  'errorMessage',
  // Added to the documented fields: the exact bytes sent and the latest request's headers.
  'requestBody',
  'requestHeaders',
].sort();

/** Interface document, Registries (merchant): /api/v1/webhook-endpoints and its deliveries. */
describe('merchant webhook endpoint registry', () => {
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

  const pathFor = (name: string) => `/${name}-${crypto.randomBytes(3).toString('hex')}`;
  const as = (apiKey: string) => ({ 'x-api-key': apiKey });

  const call = (merchant: TestMerchant | string, method: string, path: string, body?: unknown) =>
    server.request(method, path, {
      headers: as(typeof merchant === 'string' ? merchant : merchant.apiKey),
      ...(body === undefined ? {} : { body }),
    });

  const createEndpoint = async (merchant: TestMerchant, body: Record<string, unknown>) => {
    const response = await call(merchant, 'POST', '/api/v1/webhook-endpoints', body);
    expect(response.status).toBe(201);
    return response.body.data;
  };

  const endpointCount = async (businessId: string) =>
    Number(
      (
        await server.runtime.dataSource.query(`SELECT count(*) AS n FROM webhook_endpoints WHERE business_id = $1`, [
          businessId,
        ])
      )[0].n,
    );

  const fund = async (merchant: TestMerchant, amount = '5.00') => {
    const response = await call(merchant, 'POST', '/api/v1/business/sandbox/wallets/fund', { currency: 'USD', amount });
    expect(response.status).toBe(201);
    return response.body.data;
  };

  const deliveriesOf = (businessId: string): Promise<any[]> =>
    server.runtime.dataSource.query(`SELECT * FROM webhook_deliveries WHERE business_id = $1 ORDER BY created_at`, [
      businessId,
    ]);

  const settled = (count: number) => (rows: any[]) =>
    rows.length >= count && rows.every((row) => ['succeeded', 'permanently_failed'].includes(row.status));

  test('create, list, read, update and delete an endpoint', async () => {
    const merchant = await server.signUp();
    const created = await createEndpoint(merchant, {
      url: 'https://hooks.example.com/a',
      events: ['wallet.funded', 'wallet.funded'],
      description: 'Ops',
    });
    expect(created).toEqual({
      id: expect.any(String),
      object: 'webhook_endpoint',
      url: 'https://hooks.example.com/a',
      events: ['wallet.funded'],
      status: 'enabled',
      description: 'Ops',
      livemode: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const second = await createEndpoint(merchant, { url: 'http://127.0.0.1:9/b', events: ['*'], status: 'disabled' });
    expect(second).toMatchObject({ events: ['*'], status: 'disabled', description: null });

    const list = await call(merchant, 'GET', '/api/v1/webhook-endpoints');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ success: true, data: { items: [second, created], total: 2 } });

    const read = await call(merchant, 'GET', `/api/v1/webhook-endpoints/${created.id}`);
    expect(read.body).toEqual({ success: true, data: created });

    const updated = await call(merchant, 'PATCH', `/api/v1/webhook-endpoints/${created.id}`, {
      url: 'https://hooks.example.com/renamed',
      events: ['payment.completed', '*'],
      status: 'disabled',
      description: null,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      id: created.id,
      url: 'https://hooks.example.com/renamed',
      events: ['payment.completed', '*'],
      status: 'disabled',
      description: null,
    });
    const partial = await call(merchant, 'PATCH', `/api/v1/webhook-endpoints/${created.id}`, { status: 'enabled' });
    expect(partial.body.data).toMatchObject({ url: 'https://hooks.example.com/renamed', status: 'enabled' });

    const deleted = await call(merchant, 'DELETE', `/api/v1/webhook-endpoints/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: created.id, object: 'webhook_endpoint', deleted: true });
    expect((await call(merchant, 'GET', `/api/v1/webhook-endpoints/${created.id}`)).status).toBe(404);
    expect((await call(merchant, 'GET', '/api/v1/webhook-endpoints')).body.data.total).toBe(1);
  });

  test.each<[string, unknown, string]>([
    ['missing url', { events: ['wallet.funded'] }, 'url'],
    ['relative url', { url: '/hook', events: ['wallet.funded'] }, 'url'],
    ['ftp url', { url: 'ftp://hooks.example.com/x', events: ['wallet.funded'] }, 'url'],
    ['url not a string', { url: 42, events: ['wallet.funded'] }, 'url'],
    ['missing events', { url: 'https://hooks.example.com/x' }, 'events'],
    ['events not an array', { url: 'https://hooks.example.com/x', events: 'wallet.funded' }, 'events'],
    ['empty events', { url: 'https://hooks.example.com/x', events: [] }, 'events'],
    [
      'badly named event',
      { url: 'https://hooks.example.com/x', events: ['wallet.funded', 'Wallet Funded'] },
      'events.1',
    ],
    ['event not a string', { url: 'https://hooks.example.com/x', events: [7] }, 'events.0'],
    ['unknown status', { url: 'https://hooks.example.com/x', events: ['*'], status: 'paused' }, 'status'],
    [
      'description too long',
      { url: 'https://hooks.example.com/x', events: ['*'], description: 'x'.repeat(501) },
      'description',
    ],
  ])('POST with %s → 400 VALIDATION_ERROR on that field, nothing written', async (_name, body, field) => {
    const merchant = await server.signUp();
    const response = await call(merchant, 'POST', '/api/v1/webhook-endpoints', body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', statusCode: 400 } });
    expect(response.body.error.errors[field]).toEqual([expect.any(String)]);
    expect(await endpointCount(merchant.businessId)).toBe(0);
  });

  test('PATCH with bad input → 400 per field and the endpoint is unchanged; bad delivery queries → 400', async () => {
    const merchant = await server.signUp();
    const endpoint = await createEndpoint(merchant, { url: 'https://hooks.example.com/a', events: ['wallet.funded'] });
    const bad = await call(merchant, 'PATCH', `/api/v1/webhook-endpoints/${endpoint.id}`, {
      url: 'nope',
      events: [],
      status: 'off',
      description: 5,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(bad.body.error.errors).sort()).toEqual(['description', 'events', 'status', 'url']);
    expect((await call(merchant, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}`)).body.data).toEqual(endpoint);

    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=x', 'limit'],
      ['page=0', 'page'],
      ['page=1.5', 'page'],
      ['status=done', 'status'],
      ['eventType=Not%20An%20Event', 'eventType'],
    ]) {
      const response = await call(merchant, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        errors: { [field]: [expect.any(String)] },
      });
    }
  });

  test("another business's endpoint, another mode's endpoint and malformed ids are 404 on every route", async () => {
    const owner = await server.signUp();
    const other = await server.signUp();
    const endpoint = await createEndpoint(owner, { url: 'https://hooks.example.com/a', events: ['*'] });
    const ownerLiveKey = await server.liveKeyOf(owner);
    for (const [caller, id] of [
      [other.apiKey, endpoint.id],
      [ownerLiveKey, endpoint.id],
      [owner.apiKey, 'not-a-uuid'],
      [owner.apiKey, crypto.randomUUID()],
    ]) {
      for (const [method, suffix, body] of [
        ['GET', '', undefined],
        ['PATCH', '', { status: 'disabled' }],
        ['DELETE', '', undefined],
        ['GET', '/deliveries', undefined],
      ] as const) {
        const response = await call(caller, method, `/api/v1/webhook-endpoints/${id}${suffix}`, body);
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('NOT_FOUND');
      }
    }
    expect((await call(other, 'GET', '/api/v1/webhook-endpoints')).body.data.total).toBe(0);
    expect((await call(ownerLiveKey, 'GET', '/api/v1/webhook-endpoints')).body.data.total).toBe(0);
    expect((await call(owner, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}`)).body.data).toEqual(endpoint);
  });

  test('live endpoints must be https and publicly reachable, at create and at update', async () => {
    const merchant = await server.signUp();
    const liveKey = await server.liveKeyOf(merchant);
    for (const [url, reason] of [
      ['http://93.184.216.34/hook', /https/],
      ['https://127.0.0.1/hook', /publicly reachable/],
      ['https://10.1.2.3/hook', /publicly reachable/],
      ['https://localhost/hook', /publicly reachable/],
    ] as const) {
      const response = await call(liveKey, 'POST', '/api/v1/webhook-endpoints', { url, events: ['*'] });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        errors: { url: [expect.stringMatching(reason)] },
      });
    }
    expect(await endpointCount(merchant.businessId)).toBe(0);

    const created = await call(liveKey, 'POST', '/api/v1/webhook-endpoints', {
      url: 'https://93.184.216.34/hook',
      events: ['*'],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.livemode).toBe(true);
    const refused = await call(liveKey, 'PATCH', `/api/v1/webhook-endpoints/${created.body.data.id}`, {
      url: 'https://192.168.0.7/hook',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.errors.url).toEqual([expect.stringMatching(/publicly reachable/)]);
    expect((await call(liveKey, 'GET', `/api/v1/webhook-endpoints/${created.body.data.id}`)).body.data.url).toBe(
      'https://93.184.216.34/hook',
    );

    // Sandbox endpoints may be plain http and local.
    expect(
      (await call(merchant, 'POST', '/api/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['*'] }))
        .status,
    ).toBe(201);
  });

  test('at most 20 endpoints per business and mode: the 21st is a CONFLICT', async () => {
    const merchant = await server.signUp();
    for (let i = 0; i < 20; i += 1)
      await createEndpoint(merchant, { url: `https://hooks.example.com/${i}`, events: ['*'] });
    const response = await call(merchant, 'POST', '/api/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/21',
      events: ['*'],
    });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('CONFLICT');
    expect(await endpointCount(merchant.businessId)).toBe(20);
  });

  test('an event goes only to enabled endpoints of its business and mode subscribed to its type (or "*")', async () => {
    const merchant = await server.signUp();
    const stranger = await server.signUp();
    const paths = {
      funded: pathFor('funded'),
      all: pathFor('all'),
      payments: pathFor('payments'),
      disabled: pathFor('disabled'),
      strangers: pathFor('strangers'),
    };
    const funded = await createEndpoint(merchant, { url: receiver.url(paths.funded), events: ['wallet.funded'] });
    const all = await createEndpoint(merchant, { url: receiver.url(paths.all), events: ['*'] });
    const payments = await createEndpoint(merchant, {
      url: receiver.url(paths.payments),
      events: ['payment.completed'],
    });
    const disabled = await createEndpoint(merchant, {
      url: receiver.url(paths.disabled),
      events: ['wallet.funded'],
      status: 'disabled',
    });
    await createEndpoint(stranger, { url: receiver.url(paths.strangers), events: ['*'] });

    const { transactionId } = await fund(merchant, '4.50');
    // Deliveries are written with the event, so these rows are every request it will make.
    const rows = await waitFor(() => deliveriesOf(merchant.businessId), settled(2));

    expect(receiver.at(paths.funded)).toHaveLength(1);
    expect(receiver.at(paths.all)).toHaveLength(1);
    for (const path of [paths.payments, paths.disabled, paths.strangers]) expect(receiver.at(path)).toHaveLength(0);
    expect((await deliveriesOf(merchant.businessId)).map((row) => row.endpoint_id).sort()).toEqual(
      [funded.id, all.id].sort(),
    );
    expect(rows.every((row) => row.status === 'succeeded')).toBe(true);
    expect(await deliveriesOf(stranger.businessId)).toHaveLength(0);

    // Signed like the business webhookUrl: with the API secret of the mode.
    const [request] = receiver.at(paths.funded);
    expect(request.headers['x-service-event']).toBe('wallet.funded');
    expect(request.headers['x-service-signature']).toBe(
      crypto.createHmac('sha256', merchant.apiSecret).update(request.body).digest('hex'),
    );
    expect(JSON.parse(request.body)).toMatchObject({ event: 'wallet.funded', data: { amount: '4.50', transactionId } });

    for (const endpoint of [payments, disabled]) {
      const listed = await call(merchant, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`);
      expect(listed.body).toEqual({ success: true, data: { items: [], total: 0, page: 1, limit: 20 } });
    }

    // Deleting an endpoint keeps its delivery history, detached.
    await call(merchant, 'DELETE', `/api/v1/webhook-endpoints/${funded.id}`);
    const detached = await deliveriesOf(merchant.businessId);
    expect(detached).toHaveLength(2);
    expect(detached.filter((row) => row.endpoint_id === null)).toHaveLength(1);
  });

  test('the deliveries of an endpoint: documented fields, newest first, page/limit and status/eventType filters', async () => {
    const merchant = await server.signUp();
    const path = pathFor('list');
    receiver.program(path, [{ status: 500 }]);
    const endpoint = await createEndpoint(merchant, { url: receiver.url(path), events: ['*'] });
    for (let i = 1; i <= 3; i += 1) {
      await fund(merchant, `${i}.00`);
      await waitFor(() => deliveriesOf(merchant.businessId), settled(i));
    }

    const url = `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`;
    const all = await call(merchant, 'GET', url);
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(['success', 'data']);
    expect(Object.keys(all.body.data).sort()).toEqual(['items', 'limit', 'page', 'total']);
    expect(all.body.data).toMatchObject({ total: 3, page: 1, limit: 20 });
    const items = all.body.data.items;
    expect(items.map((item: any) => item.payload.data.amount)).toEqual(['3.00', '2.00', '1.00']);
    for (const item of items) expect(Object.keys(item).sort()).toEqual(DELIVERY_FIELDS);
    const [events] = [
      await server.runtime.dataSource.query(`SELECT id FROM events WHERE business_id = $1`, [merchant.businessId]),
    ];
    expect(items[2]).toEqual({
      id: expect.any(String),
      endpointId: endpoint.id,
      eventId: expect.any(String),
      eventType: 'wallet.funded',
      payload: {
        event: 'wallet.funded',
        timestamp: expect.any(String),
        data: expect.objectContaining({ amount: '1.00' }),
      },
      requestBody: expect.stringContaining('"amount":"1.00"'),
      requestHeaders: expect.objectContaining({ 'x-service-event': 'wallet.funded' }),
      status: 'permanently_failed',
      attemptCount: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      partnerId: null,
      nextRetryAt: null,
      lastAttemptAt: expect.any(String),
      responseStatus: 500,
      responseBody: null,
      responseTimeMs: expect.any(Number),
      errorMessage: 'The endpoint answered HTTP 500',
    });
    expect(events.map((row: any) => row.id)).toContain(items[2].eventId);
    expect(items[0]).toMatchObject({ status: 'succeeded', responseStatus: 200, errorMessage: null });

    const first = await call(merchant, 'GET', `${url}?limit=2`);
    expect(first.body.data).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(first.body.data.items.map((item: any) => item.id)).toEqual([items[0].id, items[1].id]);
    const second = await call(merchant, 'GET', `${url}?limit=2&page=2`);
    expect(second.body.data).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(second.body.data.items.map((item: any) => item.id)).toEqual([items[2].id]);
    const beyond = await call(merchant, 'GET', `${url}?limit=2&page=3`);
    expect(beyond.body.data).toEqual({ items: [], total: 3, page: 3, limit: 2 });

    const succeeded = await call(merchant, 'GET', `${url}?status=succeeded`);
    expect(succeeded.body.data.items.map((item: any) => item.id)).toEqual([items[0].id, items[1].id]);
    expect(succeeded.body.data.total).toBe(2);
    const failed = await call(merchant, 'GET', `${url}?status=permanently_failed`);
    expect(failed.body.data.items.map((item: any) => item.id)).toEqual([items[2].id]);
    const anyCase = await call(merchant, 'GET', `${url}?status=PERMANENTLY_FAILED`);
    expect(anyCase.body.data.items.map((item: any) => item.id)).toEqual([items[2].id]);
    expect(
      (await call(merchant, 'GET', `${url}?eventType=wallet.funded&status=succeeded&limit=1`)).body.data,
    ).toMatchObject({ total: 2, limit: 1, items: [expect.objectContaining({ id: items[0].id })] });
    expect((await call(merchant, 'GET', `${url}?eventType=payment.completed`)).body.data).toEqual({
      items: [],
      total: 0,
      page: 1,
      limit: 20,
    });
  });
});
