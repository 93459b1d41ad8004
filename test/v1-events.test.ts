import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser } from 'playwright-core';
import { CHROMIUM, launchChromium } from './support/browser';
import { PATIENCE_MS, TestServer, startDeliveringServer, waitFor } from './support/harness';
import { CARDS, FUTURE_YEAR, cardForm, page, pathOf } from './support/checkout';
import { Receiver } from './support/receiver';
import { V1Merchant, paymentBody, setV1WebhookUrl, v1, v1Merchant } from './support/v1';

/** The hex HMAC-SHA256 of the raw body keyed with the /v1 secret key: what a receiver computes to check Service-Signature. */
const signatureOf = (body: string, key: string) => crypto.createHmac('sha256', key).update(body, 'utf8').digest('hex');

const setWebhookUrl = (server: TestServer, merchant: V1Merchant, webhookUrl: string) =>
  server.request('PUT', '/api/v1/business/config', { headers: { 'x-api-key': merchant.apiKey }, body: { webhookUrl } });

/** The signed /v1 deliveries a receiver path got (those carrying Service-Signature), with their bodies parsed. */
const v1DeliveriesAt = (receiver: Receiver, path: string) =>
  receiver
    .at(path)
    .filter((request) => request.headers['service-signature'])
    .map((request) => ({ ...request, json: JSON.parse(request.body) }));

describe("/v1 events: signed with Service-Signature, to the payment's webhook_url and the business's /v1 webhook URL", () => {
  let server: TestServer;
  let receiver: Receiver;
  let merchantSite: http.Server;
  let merchantUrl: string;
  let browser: Browser | null = null;

  beforeAll(async () => {
    receiver = new Receiver();
    await receiver.start();
    merchantSite = http.createServer((_request, response) => {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Thanks</title><h1 id="thanks">Paid</h1>');
    });
    await new Promise<void>((resolve) => merchantSite.listen(0, '127.0.0.1', resolve));
    merchantUrl = `http://127.0.0.1:${(merchantSite.address() as AddressInfo).port}`;
    server = await startDeliveringServer({
      checkoutMaxFailedAttemptsPerSession: 2,
      checkoutMaxFailedAttemptsPerCard: 50,
      webhookRetryScheduleSeconds: [0, 1],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server.close();
    await receiver.close();
    await new Promise((resolve) => merchantSite.close(resolve));
  });

  test('a payer pays a /v1 payment on its hosted page in Chromium; webhook_url receives a correctly signed payment.completed', async () => {
    expect(fs.existsSync(CHROMIUM)).toBe(true);
    const merchant = await v1Merchant(server);
    expect((await setWebhookUrl(server, merchant, receiver.url('/business-hooks'))).status).toBe(200);
    await setV1WebhookUrl(server, merchant, receiver.url('/v1-business-hooks'));
    const created = await v1(server, merchant.testKey)(
      'POST',
      '/v1/payments',
      paymentBody({
        amount: 1999,
        description: 'Order 7',
        redirect_url: `${merchantUrl}/thanks`,
        webhook_url: receiver.url('/payment-hooks'),
        metadata: { order: 7 },
      }),
    );
    expect(created.status).toBe(201);

    browser = await launchChromium();
    const browserPage = await browser.newPage();
    // payment_url is on PUBLIC_BASE_URL; the browser reaches the same page on the test server's own address.
    await browserPage.goto(`${server.baseUrl}${pathOf(created.body.payment_url)}`);
    expect(await browserPage.textContent('.amount')).toBe('19.99 USD');
    await browserPage.fill('#email', 'payer@example.com');
    await browserPage.fill('#number', '4242 4242 4242 4242');
    await browserPage.fill('#expiryMonth', '12');
    await browserPage.fill('#expiryYear', FUTURE_YEAR);
    await browserPage.fill('#cvv', '123');
    await Promise.all([
      browserPage.waitForURL(`${merchantUrl}/thanks?**`, { timeout: PATIENCE_MS }),
      browserPage.click('#pay'),
    ]);
    expect(await browserPage.textContent('#thanks')).toBe('Paid');

    const read = await v1(server, merchant.testKey)('GET', `/v1/payments/${created.body.id}`);
    expect(read.body.status).toBe('completed');

    const [delivery] = await waitFor(
      async () => v1DeliveriesAt(receiver, '/payment-hooks'),
      (found) => found.length > 0,
    );
    expect(delivery.headers['service-signature']).toBe(signatureOf(delivery.body, merchant.testKey));
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['x-service-signature']).toBeUndefined();
    expect(Object.keys(delivery.json)).toEqual(['event', 'timestamp', 'data']);
    expect(delivery.json.event).toBe('payment.completed');
    expect(Number.isNaN(Date.parse(delivery.json.timestamp))).toBe(false);
    expect(delivery.json.data).toEqual({ ...read.body, status: 'completed' });
    // Keyed with any other secret (the main surface's API secret), the signature does not match.
    expect(delivery.headers['service-signature']).not.toBe(signatureOf(delivery.body, merchant.apiSecret));

    // The business's /v1 webhook URL gets the same /v1 event, signed alike; the main webhookUrl gets only the main surface's own events.
    const atBusiness = await waitFor(
      async () => v1DeliveriesAt(receiver, '/v1-business-hooks'),
      (found) => found.length > 0,
    );
    expect(atBusiness.map((request) => request.json.event)).toEqual(['payment.completed']);
    expect(atBusiness[0].headers['service-signature']).toBe(signatureOf(atBusiness[0].body, merchant.testKey));
    expect(atBusiness[0].json.data.id).toBe(created.body.id);
    const mainEvents = await waitFor(
      async () => receiver.at('/business-hooks').filter((request) => request.headers['x-service-signature']),
      (found) => found.some((request) => JSON.parse(request.body).event === 'payment_link.session.completed'),
    );
    expect(v1DeliveriesAt(receiver, '/business-hooks')).toEqual([]);
    for (const request of mainEvents) {
      expect(request.headers['x-service-signature']).toBe(signatureOf(request.body, merchant.apiSecret));
      expect(request.headers['service-signature']).toBeUndefined();
    }
  });

  test('an unpaid payment expires at expires_at by its durable job: status expired, signed payment.expired', async () => {
    const merchant = await v1Merchant(server);
    const created = await v1(server, merchant.testKey)(
      'POST',
      '/v1/payments',
      paymentBody({ webhook_url: receiver.url('/expiry-hooks') }),
    );
    const [job] = await server.runtime.dataSource.query('SELECT run_at FROM graphile_worker.jobs WHERE key = $1', [
      `checkout-expire:${created.body.id}`,
    ]);
    expect(new Date(job.run_at).toISOString()).toBe(created.body.expires_at);
    // Bring expires_at (and its job) to now instead of waiting 24 hours.
    await server.runtime.dataSource.transaction(async (manager) => {
      await manager.query('UPDATE checkout_sessions SET expires_at = now() WHERE id = $1', [created.body.id]);
      await manager.query(
        `SELECT graphile_worker.add_job('expire_checkout_session', json_build_object('sessionId', $1::text), job_key := $2)`,
        [created.body.id, `checkout-expire:${created.body.id}`],
      );
    });
    const read = await waitFor(
      () => v1(server, merchant.testKey)('GET', `/v1/payments/${created.body.id}`),
      (answer) => answer.body.status === 'expired',
    );
    expect(read.body.status).toBe('expired');
    const [delivery] = await waitFor(
      async () => v1DeliveriesAt(receiver, '/expiry-hooks'),
      (found) => found.length > 0,
    );
    expect(delivery.json).toMatchObject({ event: 'payment.expired', data: { id: created.body.id, status: 'expired' } });
    expect(delivery.headers['service-signature']).toBe(signatureOf(delivery.body, merchant.testKey));
    expect(
      (await v1(server, merchant.testKey)('GET', '/v1/payments?status=expired')).body.data.map(
        (payment: { id: string }) => payment.id,
      ),
    ).toEqual([created.body.id]);
    // The event log keeps it as v1.payment.expired, with its delivery; the webhookUrl's own list does not show it.
    const logged = await server.request('GET', '/api/v1/events?type=v1.payment.expired', {
      headers: { 'x-api-key': merchant.apiKey },
    });
    expect(logged.body.data.items).toHaveLength(1);
    expect(logged.body.data.items[0]).toMatchObject({
      type: 'v1.payment.expired',
      data: { id: created.body.id, status: 'expired' },
    });
    expect(logged.body.data.items[0].deliveries.map((delivery: { eventType: string }) => delivery.eventType)).toEqual([
      'payment.expired',
    ]);
    const urlDeliveries = await server.request('GET', '/api/v1/business/config/webhook-deliveries', {
      headers: { 'x-api-key': merchant.apiKey },
    });
    expect(urlDeliveries.status).toBe(200);
    expect(urlDeliveries.body.data.items).toEqual([]);
    // A main-surface replay would send it unsigned by the /v1 key, to main-surface targets: refused, nothing queued.
    expect((await setWebhookUrl(server, merchant, receiver.url('/main-surface-hooks'))).status).toBe(200);
    const deliveriesBefore = await server.runtime.dataSource.query(
      'SELECT count(*) AS n FROM webhook_deliveries WHERE event_id = $1',
      [logged.body.data.items[0].id],
    );
    const replay = await server.request('POST', `/api/v1/events/${logged.body.data.items[0].id}/replay`, {
      headers: { 'x-api-key': merchant.apiKey },
      body: {},
    });
    expect([replay.status, replay.body.error?.code]).toEqual([409, 'CONFLICT']);
    expect(
      await server.runtime.dataSource.query('SELECT count(*) AS n FROM webhook_deliveries WHERE event_id = $1', [
        logged.body.data.items[0].id,
      ]),
    ).toEqual(deliveriesBefore);
  });

  test('a payment locked after too many declined attempts is failed: signed payment.failed', async () => {
    const merchant = await v1Merchant(server);
    const created = await v1(server, merchant.testKey)(
      'POST',
      '/v1/payments',
      paymentBody({ webhook_url: receiver.url('/failed-hooks') }),
    );
    const url = pathOf(created.body.payment_url);
    for (let attempt = 0; attempt < 2; attempt += 1)
      await page(server, 'POST', url, cardForm(CARDS.declined, { email: 'payer@example.com' }));
    const read = await v1(server, merchant.testKey)('GET', `/v1/payments/${created.body.id}`);
    expect(read.body.status).toBe('failed');
    const [delivery] = await waitFor(
      async () => v1DeliveriesAt(receiver, '/failed-hooks'),
      (found) => found.length > 0,
    );
    expect(delivery.json).toMatchObject({ event: 'payment.failed', data: { id: created.body.id, status: 'failed' } });
    expect(delivery.headers['service-signature']).toBe(signatureOf(delivery.body, merchant.testKey));
  });

  test('a /v1 delivery that fails is retried by the same durable delivery machinery, the same bytes signed alike', async () => {
    const merchant = await v1Merchant(server);
    receiver.program('/flaky-hooks', [{ status: 500 }]);
    const created = await v1(server, merchant.testKey)(
      'POST',
      '/v1/payments',
      paymentBody({ webhook_url: receiver.url('/flaky-hooks') }),
    );
    await server.runtime.dataSource.transaction(async (manager) => {
      await manager.query('UPDATE checkout_sessions SET expires_at = now() WHERE id = $1', [created.body.id]);
      await manager.query(
        `SELECT graphile_worker.add_job('expire_checkout_session', json_build_object('sessionId', $1::text), job_key := $2)`,
        [created.body.id, `checkout-expire:${created.body.id}`],
      );
    });
    const [row] = await waitFor(
      () =>
        server.runtime.dataSource.query(
          'SELECT target, status, attempt_count, response_status FROM webhook_deliveries WHERE url = $1',
          [receiver.url('/flaky-hooks')],
        ),
      (rows: Array<{ status: string }>) => rows.length === 1 && rows[0].status === 'succeeded',
    );
    expect(row).toMatchObject({ target: 'v1', status: 'succeeded', attempt_count: 2, response_status: 200 });
    const deliveries = v1DeliveriesAt(receiver, '/flaky-hooks');
    expect(deliveries).toHaveLength(2);
    expect(deliveries[1].body).toBe(deliveries[0].body);
    for (const delivery of deliveries)
      expect(delivery.headers['service-signature']).toBe(signatureOf(delivery.body, merchant.testKey));
  });
});
