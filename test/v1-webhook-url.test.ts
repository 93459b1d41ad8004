import crypto from 'node:crypto';
import { TestServer, startDeliveringServer, waitFor } from './support/harness';
import { CARDS, cardForm, page, pathOf } from './support/checkout';
import { Receiver } from './support/receiver';
import { paymentBody, v1, v1Merchant } from './support/v1';

const signatureOf = (body: string, key: string) => crypto.createHmac('sha256', key).update(body, 'utf8').digest('hex');

const SET_V1_URL = `mutation($url: String) {
  setV1WebhookUrl(input: { webhookUrl: $url }) { v1WebhookSettings { mode webhookUrl } userErrors { field message code } }
}`;

/**
 * Issue 27, finding 1: `/v1` events go to the payment's `webhook_url` and to the `/v1` webhook URL
 * set through `/v1`'s own settings (GraphQL, the CLI), never to the main surface's `webhookUrl` or
 * its registered endpoints, whose receivers check `X-Service-Signature` and read major units.
 */
describe('/v1 events reach only /v1 targets', () => {
  let server: TestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = new Receiver();
    await receiver.start();
    server = await startDeliveringServer();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  test('a /v1 payment completed with a main webhookUrl and endpoint registered: the main targets get nothing of /v1, the /v1 URL gets the signed event', async () => {
    const merchant = await v1Merchant(server);
    const headers = { 'x-api-key': merchant.apiKey };
    expect(
      (
        await server.request('PUT', '/api/v1/business/config', {
          headers,
          body: { webhookUrl: receiver.url('/main-url') },
        })
      ).status,
    ).toBe(200);
    const endpoint = await server.request('POST', '/api/v1/webhook-endpoints', {
      headers,
      body: { url: receiver.url('/main-endpoint'), events: ['*'] },
    });
    expect(endpoint.status).toBe(201);
    const set = await server.graphql(
      SET_V1_URL,
      { url: receiver.url('/v1-url') },
      { authorization: `Bearer ${merchant.token}`, 'x-service-business-id': merchant.businessId },
    );
    expect(set.body.errors).toBeUndefined();
    expect(set.body.data.setV1WebhookUrl).toEqual({
      v1WebhookSettings: { mode: 'TEST', webhookUrl: receiver.url('/v1-url') },
      userErrors: [],
    });

    const created = await v1(server, merchant.testKey)(
      'POST',
      '/v1/payments',
      paymentBody({ amount: 2500, webhook_url: receiver.url('/v1-payment') }),
    );
    expect(created.status).toBe(201);
    const paid = await page(
      server,
      'POST',
      pathOf(created.body.payment_url),
      cardForm(CARDS.success, { email: 'payer@example.com' }),
    );
    expect(paid.status).toBe(303);

    // The /v1 URL and the payment's webhook_url get the /v1 event, signed with the /v1 key.
    for (const path of ['/v1-url', '/v1-payment']) {
      const [delivery] = await waitFor(
        async () => receiver.at(path),
        (found) => found.length > 0,
      );
      expect(JSON.parse(delivery.body)).toMatchObject({
        event: 'payment.completed',
        data: { id: created.body.id, amount: 2500 },
      });
      expect(delivery.headers['service-signature']).toBe(signatureOf(delivery.body, merchant.testKey));
    }
    // The event's deliveries were written with the event: none to a main-surface target.
    const [event] = await server.runtime.dataSource.query(
      `SELECT id FROM events WHERE business_id = $1 AND type = 'v1.payment.completed'`,
      [merchant.businessId],
    );
    const rows: Array<{ url: string; target: string }> = await server.runtime.dataSource.query(
      'SELECT url, target FROM webhook_deliveries WHERE event_id = $1',
      [event.id],
    );
    expect(rows.map((row) => row.url).sort()).toEqual([receiver.url('/v1-payment'), receiver.url('/v1-url')].sort());

    // Something delivered after that must arrive at both main targets; by then nothing of /v1 has.
    expect(
      (
        await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
          headers,
          body: { currency: 'USD', amount: '1.00' },
        })
      ).status,
    ).toBe(201);
    for (const path of ['/main-url', '/main-endpoint']) {
      await waitFor(
        async () => receiver.at(path),
        (found) =>
          found.some(
            (request) =>
              JSON.parse(request.body).type === 'wallet.funded' || JSON.parse(request.body).event === 'wallet.funded',
          ),
      );
      const got = receiver.at(path);
      expect(got.filter((request) => request.headers['service-signature'])).toEqual([]);
      // The main surface's own events of the payment come, signed the main way; no /v1 event (its data is the /v1 payment).
      expect(got.filter((request) => !request.headers['x-service-signature'])).toEqual([]);
      expect(got.filter((request) => JSON.parse(request.body).data?.id === created.body.id)).toEqual([]);
    }
  });

  test("without a /v1 webhook URL, a /v1 event goes to the payment's webhook_url only; null removes the URL; a bad URL is refused", async () => {
    const merchant = await v1Merchant(server);
    const dashboard = { authorization: `Bearer ${merchant.token}`, 'x-service-business-id': merchant.businessId };
    expect(
      (await server.graphql(SET_V1_URL, { url: receiver.url('/removed') }, dashboard)).body.data.setV1WebhookUrl
        .v1WebhookSettings.webhookUrl,
    ).toBe(receiver.url('/removed'));
    expect(
      (await server.graphql(SET_V1_URL, { url: null }, dashboard)).body.data.setV1WebhookUrl.v1WebhookSettings,
    ).toEqual({ mode: 'TEST', webhookUrl: null });
    const refused = await server.graphql(SET_V1_URL, { url: 'ftp://example.com' }, dashboard);
    expect(refused.body.errors).toBeUndefined();
    expect(refused.body.data.setV1WebhookUrl).toEqual({
      v1WebhookSettings: null,
      userErrors: [
        { field: ['input', 'webhookUrl'], message: expect.stringMatching(/http/), code: 'VALIDATION_ERROR' },
      ],
    });
    expect(
      (await server.graphql('{ v1WebhookUrl { mode webhookUrl } }', {}, dashboard)).body.data.v1WebhookUrl,
    ).toEqual({ mode: 'TEST', webhookUrl: null });

    const created = await v1(server, merchant.testKey)(
      'POST',
      '/v1/payments',
      paymentBody({ webhook_url: receiver.url('/only-payment') }),
    );
    await page(
      server,
      'POST',
      pathOf(created.body.payment_url),
      cardForm(CARDS.success, { email: 'payer@example.com' }),
    );
    await waitFor(
      async () => receiver.at('/only-payment'),
      (found) => found.length > 0,
    );
    const [event] = await server.runtime.dataSource.query(
      `SELECT id FROM events WHERE business_id = $1 AND type = 'v1.payment.completed'`,
      [merchant.businessId],
    );
    const rows: Array<{ url: string }> = await server.runtime.dataSource.query(
      'SELECT url FROM webhook_deliveries WHERE event_id = $1',
      [event.id],
    );
    expect(rows.map((row) => row.url)).toEqual([receiver.url('/only-payment')]);
    expect(receiver.at('/removed')).toEqual([]);
  });
});
