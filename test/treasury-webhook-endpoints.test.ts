import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { Mode } from '../src/domain/shared/modes';
import { RequestContext, inTransaction } from '../src/domain/shared/context';
import { SecretBox } from '../src/domain/shared/crypto';
import { TestMerchant, TestServer, startDeliveringServer, waitFor } from './support/harness';
import { Received, Receiver, standardHeadersOf, verifiesServiceSignature } from './support/receiver';

const PATH = '/api/v1/treasury/webhook-endpoints';
const API_VERSION = '2026-04-15';
const ENDPOINT_FIELDS = [
  'id',
  'object',
  'url',
  'events',
  'status',
  'signingSecretHint',
  'createdAt',
  'updatedAt',
  'businessId',
  'partnerId',
  'description',
  'apiVersion',
  'livemode',
].sort();

/** Verifies the Standard Webhooks headers with the `standardwebhooks` package, keyed with the secret's bytes. */
const standardVerifies = (request: Received, secret: string) => {
  try {
    new Webhook(secret, { format: 'raw' }).verify(request.body, standardHeadersOf(request));
    return true;
  } catch {
    return false;
  }
};

/** Interface document, Treasury webhook registry: `/api/v1/treasury/webhook-endpoints`, its secrets and deliveries. */
describe('treasury webhook endpoint registry', () => {
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

  const call = (caller: TestMerchant | string, method: string, path: string, body?: unknown) =>
    server.request(method, path, {
      headers: { 'x-api-key': typeof caller === 'string' ? caller : caller.apiKey },
      ...(body === undefined ? {} : { body }),
    });

  const partner = async () => {
    const merchant = await server.signUp();
    await server.setTreasury(merchant.businessId, true);
    return merchant;
  };

  const createEndpoint = async (caller: TestMerchant | string, body: Record<string, unknown>) => {
    const response = await call(caller, 'POST', PATH, body);
    expect(response.status).toBe(201);
    return response.body.data as { endpoint: any; signingSecret: string };
  };

  const endpointRows = (businessId: string): Promise<any[]> =>
    server.runtime.dataSource.query(`SELECT * FROM webhook_endpoints WHERE business_id = $1 ORDER BY created_at`, [
      businessId,
    ]);

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

  /** Funds the wallet and waits until the `count`-th delivery of the business is settled; answers the request at `path`. */
  const deliverOne = async (merchant: TestMerchant, path: string, count = 1): Promise<Received> => {
    await fund(merchant);
    await waitFor(() => deliveriesOf(merchant.businessId), settled(count));
    const requests = receiver.at(path);
    expect(requests).toHaveLength(count);
    return requests[count - 1];
  };

  test('create answers the signing secret once; reads show only signingSecretHint, and the database keeps it sealed', async () => {
    const merchant = await partner();
    const { endpoint, signingSecret } = await createEndpoint(merchant, {
      url: 'https://partner.example.com/hooks',
      events: ['wallet.funded', 'wallet.funded'],
      description: 'Ledger sync',
    });
    expect(signingSecret).toMatch(/^whsk_[A-Za-z0-9_-]{43}$/);
    expect(endpoint).toEqual({
      id: expect.any(String),
      object: 'treasury_webhook_endpoint',
      url: 'https://partner.example.com/hooks',
      events: ['wallet.funded'],
      status: 'enabled',
      signingSecretHint: `whsk_…${signingSecret.slice(-4)}`,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      businessId: merchant.businessId,
      partnerId: merchant.businessId,
      description: 'Ledger sync',
      apiVersion: API_VERSION,
      livemode: false,
    });

    const list = await call(merchant, 'GET', PATH);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ success: true, data: { items: [endpoint], total: 1 } });
    const read = await call(merchant, 'GET', `${PATH}/${endpoint.id}`);
    expect(read.body).toEqual({ success: true, data: endpoint });
    expect(Object.keys(read.body.data).sort()).toEqual(ENDPOINT_FIELDS);
    for (const response of [list, read]) expect(JSON.stringify(response.body)).not.toContain(signingSecret.slice(5));

    const [row] = await endpointRows(merchant.businessId);
    expect(row).toMatchObject({
      registry: 'treasury',
      secret_hint: endpoint.signingSecretHint,
      previous_secret_ciphertext: null,
      api_version: API_VERSION,
    });
    expect(row.secret_ciphertext).toMatch(/^v1\./);
    expect(row.secret_ciphertext).not.toContain(signingSecret.slice(5));
    expect(new SecretBox(server.runtime.config.masterKey!).open(row.secret_ciphertext)).toBe(signingSecret);

    const second = await createEndpoint(merchant, {
      url: 'http://127.0.0.1:9/b',
      events: ['*'],
      apiVersion: API_VERSION,
    });
    expect(second.signingSecret).not.toBe(signingSecret);
    expect(second.endpoint).toMatchObject({ events: ['*'], apiVersion: API_VERSION, description: null });
  });

  test('update, partial update and delete', async () => {
    const merchant = await partner();
    const { endpoint } = await createEndpoint(merchant, {
      url: 'https://partner.example.com/a',
      events: ['wallet.funded'],
    });
    const updated = await call(merchant, 'PATCH', `${PATH}/${endpoint.id}`, {
      url: 'https://partner.example.com/renamed',
      events: ['payment.completed', '*'],
      status: 'disabled',
      description: 'Ops',
      apiVersion: API_VERSION,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({
      ...endpoint,
      url: 'https://partner.example.com/renamed',
      events: ['payment.completed', '*'],
      status: 'disabled',
      description: 'Ops',
      updatedAt: expect.any(String),
    });
    const partial = await call(merchant, 'PATCH', `${PATH}/${endpoint.id}`, { status: 'enabled', description: null });
    expect(partial.body.data).toMatchObject({
      url: 'https://partner.example.com/renamed',
      status: 'enabled',
      description: null,
      signingSecretHint: endpoint.signingSecretHint,
    });

    const deleted = await call(merchant, 'DELETE', `${PATH}/${endpoint.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: endpoint.id, object: 'treasury_webhook_endpoint', deleted: true });
    expect((await call(merchant, 'GET', `${PATH}/${endpoint.id}`)).status).toBe(404);
    expect(await endpointRows(merchant.businessId)).toEqual([]);
  });

  test('without the treasury product every route is 403 FORBIDDEN, and nothing is written', async () => {
    const merchant = await partner();
    const { endpoint } = await createEndpoint(merchant, { url: 'https://partner.example.com/a', events: ['*'] });
    await server.setTreasury(merchant.businessId, false);
    const stranger = await server.signUp();
    for (const [caller, id] of [
      [merchant, endpoint.id],
      [stranger, crypto.randomUUID()],
    ] as const) {
      for (const [method, suffix, body] of [
        ['POST', '', { url: 'https://partner.example.com/b', events: ['*'] }],
        ['POST', '', { url: 'nope' }],
        ['GET', '', undefined],
        ['GET', `/${id}`, undefined],
        ['PATCH', `/${id}`, { status: 'disabled' }],
        ['DELETE', `/${id}`, undefined],
        ['GET', `/${id}/deliveries`, undefined],
        ['POST', `/${id}/rotate-secret`, { gracePeriodHours: 0 }],
      ] as const) {
        const response = await call(caller, method, `${PATH}${suffix}`, body);
        expect(response.status).toBe(403);
        expect(response.body).toEqual({
          success: false,
          error: {
            code: 'FORBIDDEN',
            message: 'The treasury product is not enabled for this business',
            statusCode: 403,
          },
        });
      }
    }
    expect(await endpointRows(stranger.businessId)).toEqual([]);
    const [row] = await endpointRows(merchant.businessId);
    expect(row).toMatchObject({ id: endpoint.id, status: 'enabled', previous_secret_ciphertext: null });
    expect(row.secret_hint).toBe(endpoint.signingSecretHint);
  });

  test("another business's endpoint, the other mode's, a merchant endpoint and malformed ids are 404 on every route", async () => {
    const owner = await partner();
    const other = await partner();
    const { endpoint } = await createEndpoint(owner, { url: 'https://partner.example.com/a', events: ['*'] });
    const merchantEndpoint = await call(owner, 'POST', '/api/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/m',
      events: ['*'],
    });
    const ownerLiveKey = await server.liveKeyOf(owner);
    const callers: Array<[string, string]> = [
      [other.apiKey, endpoint.id],
      [ownerLiveKey, endpoint.id],
      [owner.apiKey, merchantEndpoint.body.data.id],
      [owner.apiKey, 'not-a-uuid'],
      [owner.apiKey, crypto.randomUUID()],
    ];
    for (const [caller, id] of callers) {
      for (const [method, suffix, body] of [
        ['GET', '', undefined],
        ['PATCH', '', { status: 'disabled' }],
        ['DELETE', '', undefined],
        ['GET', '/deliveries', undefined],
        ['POST', '/rotate-secret', {}],
      ] as const) {
        const response = await call(caller, method, `${PATH}/${id}${suffix}`, body);
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('NOT_FOUND');
      }
    }
    // The registries are separate: neither lists nor reaches the other's endpoints.
    expect((await call(other, 'GET', PATH)).body.data.total).toBe(0);
    expect((await call(ownerLiveKey, 'GET', PATH)).body.data.total).toBe(0);
    expect((await call(owner, 'GET', PATH)).body.data.items).toEqual([endpoint]);
    expect((await call(owner, 'GET', '/api/v1/webhook-endpoints')).body.data.items.map((item: any) => item.id)).toEqual(
      [merchantEndpoint.body.data.id],
    );
    expect((await call(owner, 'GET', `/api/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    const [row] = (await endpointRows(owner.businessId)).filter((candidate) => candidate.id === endpoint.id);
    expect(row).toMatchObject({ status: 'enabled', secret_hint: endpoint.signingSecretHint });
  });

  test.each<[string, unknown, string]>([
    ['missing url', { events: ['wallet.funded'] }, 'url'],
    ['relative url', { url: '/hook', events: ['wallet.funded'] }, 'url'],
    ['ftp url', { url: 'ftp://partner.example.com/x', events: ['*'] }, 'url'],
    ['missing events', { url: 'https://partner.example.com/x' }, 'events'],
    ['empty events', { url: 'https://partner.example.com/x', events: [] }, 'events'],
    [
      'badly named event',
      { url: 'https://partner.example.com/x', events: ['wallet.funded', 'Wallet Funded'] },
      'events.1',
    ],
    [
      'unknown apiVersion',
      { url: 'https://partner.example.com/x', events: ['*'], apiVersion: '2025-01-01' },
      'apiVersion',
    ],
    [
      'apiVersion not a string',
      { url: 'https://partner.example.com/x', events: ['*'], apiVersion: 20260415 },
      'apiVersion',
    ],
    [
      'description too long',
      { url: 'https://partner.example.com/x', events: ['*'], description: 'x'.repeat(501) },
      'description',
    ],
  ])('POST with %s → 400 VALIDATION_ERROR on that field, nothing written', async (_name, body, field) => {
    const merchant = await partner();
    const response = await call(merchant, 'POST', PATH, body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', statusCode: 400 } });
    expect(response.body.error.errors[field]).toEqual([expect.any(String)]);
    if (field === 'apiVersion')
      expect(response.body.error.errors.apiVersion).toEqual([`must be one of: ${API_VERSION}`]);
    expect(await endpointRows(merchant.businessId)).toEqual([]);
  });

  test('PATCH and rotate-secret with bad input → 400 per field, and the endpoint and its secret are unchanged', async () => {
    const merchant = await partner();
    const { endpoint } = await createEndpoint(merchant, {
      url: 'https://partner.example.com/a',
      events: ['wallet.funded'],
    });
    const [before] = await endpointRows(merchant.businessId);
    const bad = await call(merchant, 'PATCH', `${PATH}/${endpoint.id}`, {
      url: 'nope',
      events: [],
      status: 'off',
      apiVersion: 'latest',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.errors).sort()).toEqual(['apiVersion', 'events', 'status', 'url']);

    for (const gracePeriodHours of [-1, 169, 1.5, '24', null]) {
      const response = await call(merchant, 'POST', `${PATH}/${endpoint.id}/rotate-secret`, { gracePeriodHours });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        errors: { gracePeriodHours: ['must be an integer between 0 and 168'] },
      });
    }
    const notAnObject = await call(merchant, 'POST', `${PATH}/${endpoint.id}/rotate-secret`, [24]);
    expect(notAnObject.status).toBe(400);
    expect((await call(merchant, 'GET', `${PATH}/${endpoint.id}`)).body.data).toEqual(endpoint);
    expect(await endpointRows(merchant.businessId)).toEqual([before]);

    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['page=x', 'page'],
      ['status=done', 'status'],
    ]) {
      const response = await call(merchant, 'GET', `${PATH}/${endpoint.id}/deliveries?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error.errors).toEqual({ [field]: [expect.any(String)] });
    }
  });

  test('live endpoints must be https and publicly reachable; sandbox ones may be local http', async () => {
    const merchant = await partner();
    const liveKey = await server.liveKeyOf(merchant);
    for (const [url, reason] of [
      ['http://93.184.216.34/hook', /https/],
      ['https://127.0.0.1/hook', /publicly reachable/],
      ['https://169.254.169.254/hook', /publicly reachable/],
    ] as const) {
      const response = await call(liveKey, 'POST', PATH, { url, events: ['*'] });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        errors: { url: [expect.stringMatching(reason)] },
      });
    }
    expect(await endpointRows(merchant.businessId)).toEqual([]);
    const live = await createEndpoint(liveKey, { url: 'https://93.184.216.34/hook', events: ['*'] });
    expect(live.endpoint.livemode).toBe(true);
    const refused = await call(liveKey, 'PATCH', `${PATH}/${live.endpoint.id}`, { url: 'http://93.184.216.34/hook' });
    expect(refused.body.error.errors.url).toEqual([expect.stringMatching(/https/)]);
    await createEndpoint(merchant, { url: 'http://127.0.0.1:9/hook', events: ['*'] });
  });

  test('at most 20 treasury endpoints per business and mode, counted apart from the merchant registry', async () => {
    const merchant = await partner();
    for (let i = 0; i < 20; i += 1)
      await createEndpoint(merchant, { url: `https://partner.example.com/${i}`, events: ['*'] });
    const response = await call(merchant, 'POST', PATH, { url: 'https://partner.example.com/21', events: ['*'] });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('CONFLICT');
    expect(
      (await call(merchant, 'POST', '/api/v1/webhook-endpoints', { url: 'https://hooks.example.com/m', events: ['*'] }))
        .status,
    ).toBe(201);
    expect((await endpointRows(merchant.businessId)).filter((row) => row.registry === 'treasury')).toHaveLength(20);
  });

  test("a subscribed event reaches the partner's endpoint signed with the endpoint's own secret; others get nothing", async () => {
    const merchant = await partner();
    const stranger = await partner();
    const paths = {
      funded: pathFor('t-funded'),
      payments: pathFor('t-payments'),
      disabled: pathFor('t-disabled'),
      strangers: pathFor('t-strangers'),
    };
    const funded = await createEndpoint(merchant, { url: receiver.url(paths.funded), events: ['wallet.funded'] });
    await createEndpoint(merchant, { url: receiver.url(paths.payments), events: ['payment.completed'] });
    await createEndpoint(merchant, { url: receiver.url(paths.disabled), events: ['*'], status: 'disabled' });
    await createEndpoint(stranger, { url: receiver.url(paths.strangers), events: ['*'] });

    const { transactionId } = await fund(merchant, '4.50');
    // Deliveries are written with the event, so the rows checked below are every request it will make.
    const [delivery] = await waitFor(() => deliveriesOf(merchant.businessId), settled(1));
    for (const path of [paths.payments, paths.disabled, paths.strangers]) expect(receiver.at(path)).toHaveLength(0);
    expect(await deliveriesOf(stranger.businessId)).toEqual([]);
    expect(await deliveriesOf(merchant.businessId)).toHaveLength(1);
    expect(delivery).toMatchObject({
      endpoint_id: funded.endpoint.id,
      partner_id: merchant.businessId,
      status: 'succeeded',
    });

    const [request] = receiver.at(paths.funded);
    expect(JSON.parse(request.body)).toMatchObject({ event: 'wallet.funded', data: { amount: '4.50', transactionId } });
    expect(request.headers['x-service-event']).toBe('wallet.funded');
    expect(verifiesServiceSignature(request, funded.signingSecret)).toBe(true);
    expect(standardVerifies(request, funded.signingSecret)).toBe(true);
    // Never the API secret, and nothing else signs outside a rotation.
    expect(verifiesServiceSignature(request, merchant.apiSecret)).toBe(false);
    expect(standardVerifies(request, merchant.apiSecret)).toBe(false);
    expect(request.headers['x-service-signature-previous']).toBeUndefined();
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

    const listed = await call(merchant, 'GET', `${PATH}/${funded.endpoint.id}/deliveries`);
    expect(listed.body.data).toMatchObject({ total: 1, page: 1, limit: 20 });
    expect(listed.body.data.items[0]).toMatchObject({
      id: delivery.id,
      endpointId: funded.endpoint.id,
      partnerId: merchant.businessId,
      eventType: 'wallet.funded',
      status: 'succeeded',
    });
    const events = await call(merchant, 'GET', '/api/v1/events');
    expect(events.body.data.items[0].deliveries).toEqual([
      expect.objectContaining({ id: delivery.id, partnerId: merchant.businessId }),
    ]);
  });

  test('merchant deliveries keep the API secret and partnerId null beside a treasury endpoint of the same business', async () => {
    const merchant = await partner();
    const [treasuryPath, merchantPath] = [pathFor('t-mixed'), pathFor('m-mixed')];
    const treasury = await createEndpoint(merchant, { url: receiver.url(treasuryPath), events: ['*'] });
    await call(merchant, 'POST', '/api/v1/webhook-endpoints', { url: receiver.url(merchantPath), events: ['*'] });
    await fund(merchant);
    const rows = await waitFor(() => deliveriesOf(merchant.businessId), settled(2));
    expect(rows.map((row) => row.partner_id).sort()).toEqual([merchant.businessId, null].sort());
    expect(verifiesServiceSignature(receiver.at(merchantPath)[0], merchant.apiSecret)).toBe(true);
    expect(verifiesServiceSignature(receiver.at(treasuryPath)[0], treasury.signingSecret)).toBe(true);
    expect(verifiesServiceSignature(receiver.at(treasuryPath)[0], merchant.apiSecret)).toBe(false);
  });

  test('once the treasury product is switched off, its endpoints receive no new events', async () => {
    const merchant = await partner();
    const path = pathFor('t-switched-off');
    await createEndpoint(merchant, { url: receiver.url(path), events: ['*'] });
    await server.setTreasury(merchant.businessId, false);
    await fund(merchant);
    // Deliveries are written with the event: none now is none ever, so nothing is sent.
    expect(await deliveriesOf(merchant.businessId)).toEqual([]);
    expect(receiver.at(path)).toHaveLength(0);
  });

  test('redelivery and replay to a treasury endpoint keep partnerId and the endpoint secret', async () => {
    const merchant = await partner();
    const path = pathFor('t-again');
    const { endpoint, signingSecret } = await createEndpoint(merchant, {
      url: receiver.url(path),
      events: ['wallet.funded'],
    });
    await deliverOne(merchant, path);
    const [original] = await deliveriesOf(merchant.businessId);
    const redelivered = await call(merchant, 'POST', `/api/v1/webhook-deliveries/${original.id}/redeliver`);
    expect(redelivered.status).toBe(201);
    expect(redelivered.body.data).toMatchObject({ endpointId: endpoint.id, partnerId: merchant.businessId });
    const replayed = await call(merchant, 'POST', `/api/v1/events/${original.event_id}/replay`, {
      endpointId: endpoint.id,
    });
    expect(replayed.status).toBe(201);
    expect(replayed.body.data).toMatchObject({ endpointId: endpoint.id, partnerId: merchant.businessId });
    await waitFor(() => deliveriesOf(merchant.businessId), settled(3));
    expect(receiver.at(path)).toHaveLength(3);
    expect(receiver.at(path).every((request) => verifiesServiceSignature(request, signingSecret))).toBe(true);
  });

  test('a delivery whose treasury endpoint was deleted fails with a clear message and is never signed with the API secret', async () => {
    const merchant = await partner();
    const path = pathFor('t-deleted');
    const { endpoint } = await createEndpoint(merchant, { url: receiver.url(path), events: ['*'] });
    const core = server.runtime.core;
    const ctx = RequestContext.system(server.runtime.dataSource, 'test', merchant.businessId, Mode.TEST);
    // The event is recorded and the endpoint deleted in one transaction: the attempt runs after both.
    await inTransaction(ctx, async (tx) => {
      await core.events.record(tx, 'test.endpoint_deleted', { n: 1 });
      await core.treasuryWebhookEndpoints.delete(tx, endpoint.id);
    });
    const [delivery] = await waitFor(() => deliveriesOf(merchant.businessId), settled(1));
    expect(delivery).toMatchObject({
      endpoint_id: null,
      partner_id: merchant.businessId,
      status: 'permanently_failed',
      attempt_count: 1,
      response_status: null,
      error_message:
        'Not delivered: the treasury webhook endpoint was deleted, and its deliveries are signed only with its own signing secret',
    });
    expect(receiver.at(path)).toHaveLength(0);
  });

  describe('secret rotation', () => {
    test('rotate-secret answers a new secret; during the grace period both sign, each receiver rule verifies', async () => {
      const merchant = await partner();
      const path = pathFor('t-rotate');
      const created = await createEndpoint(merchant, { url: receiver.url(path), events: ['wallet.funded'] });
      const rotated = await call(merchant, 'POST', `${PATH}/${created.endpoint.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      const { endpoint, signingSecret } = rotated.body.data;
      expect(signingSecret).toMatch(/^whsk_[A-Za-z0-9_-]{43}$/);
      expect(signingSecret).not.toBe(created.signingSecret);
      expect(endpoint).toEqual({
        ...created.endpoint,
        signingSecretHint: `whsk_…${signingSecret.slice(-4)}`,
        updatedAt: expect.any(String),
      });
      const [row] = await endpointRows(merchant.businessId);
      expect(new SecretBox(server.runtime.config.masterKey!).open(row.previous_secret_ciphertext)).toBe(
        created.signingSecret,
      );
      expect(Math.abs(row.previous_secret_expires_at.getTime() - (Date.now() + 24 * 3_600_000))).toBeLessThan(60_000);

      const request = await deliverOne(merchant, path);
      // A receiver that already holds the new secret:
      expect(verifiesServiceSignature(request, signingSecret)).toBe(true);
      expect(standardVerifies(request, signingSecret)).toBe(true);
      // A receiver still holding the old one:
      expect(verifiesServiceSignature(request, created.signingSecret)).toBe(false);
      expect(verifiesServiceSignature(request, created.signingSecret, 'x-service-signature-previous')).toBe(true);
      expect(standardVerifies(request, created.signingSecret)).toBe(true);
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    });

    test('rotating again during a grace period retires the secret being replaced now; the oldest stops signing', async () => {
      const merchant = await partner();
      const path = pathFor('t-rotate-twice');
      const first = await createEndpoint(merchant, { url: receiver.url(path), events: ['*'] });
      const second = (
        await call(merchant, 'POST', `${PATH}/${first.endpoint.id}/rotate-secret`, { gracePeriodHours: 48 })
      ).body.data;
      const third = (
        await call(merchant, 'POST', `${PATH}/${first.endpoint.id}/rotate-secret`, { gracePeriodHours: 1 })
      ).body.data;
      const [row] = await endpointRows(merchant.businessId);
      expect(Math.abs(row.previous_secret_expires_at.getTime() - (Date.now() + 3_600_000))).toBeLessThan(60_000);

      const request = await deliverOne(merchant, path);
      expect(verifiesServiceSignature(request, third.signingSecret)).toBe(true);
      expect(verifiesServiceSignature(request, second.signingSecret, 'x-service-signature-previous')).toBe(true);
      expect(standardVerifies(request, third.signingSecret)).toBe(true);
      expect(standardVerifies(request, second.signingSecret)).toBe(true);
      expect(standardVerifies(request, first.signingSecret)).toBe(false);
      expect(verifiesServiceSignature(request, first.signingSecret, 'x-service-signature-previous')).toBe(false);
    });

    test('with gracePeriodHours 0 only the new secret signs', async () => {
      const merchant = await partner();
      const path = pathFor('t-rotate-now');
      const created = await createEndpoint(merchant, { url: receiver.url(path), events: ['*'] });
      const rotated = await call(merchant, 'POST', `${PATH}/${created.endpoint.id}/rotate-secret`, {
        gracePeriodHours: 0,
      });
      expect(rotated.status).toBe(200);
      const [row] = await endpointRows(merchant.businessId);
      expect(row).toMatchObject({ previous_secret_ciphertext: null, previous_secret_expires_at: null });

      const request = await deliverOne(merchant, path);
      expect(verifiesServiceSignature(request, rotated.body.data.signingSecret)).toBe(true);
      expect(standardVerifies(request, rotated.body.data.signingSecret)).toBe(true);
      expect(request.headers['x-service-signature-previous']).toBeUndefined();
      expect(standardVerifies(request, created.signingSecret)).toBe(false);
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(1);
    });

    test('after the grace period ends only the new secret signs', async () => {
      const merchant = await partner();
      const path = pathFor('t-grace-over');
      const created = await createEndpoint(merchant, { url: receiver.url(path), events: ['*'] });
      const rotated = (
        await call(merchant, 'POST', `${PATH}/${created.endpoint.id}/rotate-secret`, { gracePeriodHours: 1 })
      ).body.data;
      await server.runtime.dataSource.query(
        `UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`,
        [created.endpoint.id],
      );

      const request = await deliverOne(merchant, path);
      expect(verifiesServiceSignature(request, rotated.signingSecret)).toBe(true);
      expect(request.headers['x-service-signature-previous']).toBeUndefined();
      expect(standardVerifies(request, created.signingSecret)).toBe(false);
    });
  });
});
