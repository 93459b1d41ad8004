import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { SecretBox } from '../src/domain/shared/crypto';
import { TestMerchant, TestServer, startDeliveringServer, waitFor } from './support/harness';
import { Receiver, standardHeadersOf, verifiesServiceSignature } from './support/receiver';
import { NO_ANSWER } from '../src/domain/webhooks/webhook.service';

const SCHEDULE_SECONDS = [0, 0.2, 0.4, 0.6, 0.8];
/**
 * The receiver answers from this same process: on a busy machine its answer comes late, and must
 * still count. Long enough for that; short enough that the test of a slower endpoint stays quick.
 */
const TIMEOUT_MS = 5_000;

/** Interface document, Events: envelope, headers, signature, delivery and retry (merchant webhookUrl). */
describe('webhook delivery to the business webhookUrl', () => {
  let server: TestServer;
  const receiver = new Receiver();

  beforeAll(async () => {
    await receiver.start();
    server = await startDeliveringServer({
      webhookTimeoutMs: TIMEOUT_MS,
      webhookRetryScheduleSeconds: SCHEDULE_SECONDS,
    });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  const pathFor = (name: string) => `/${name}-${crypto.randomBytes(3).toString('hex')}`;

  const configureWebhook = async (merchant: TestMerchant, webhookUrl: string | null) => {
    const response = await server.request('PUT', '/api/v1/business/config', {
      headers: { 'x-api-key': merchant.apiKey },
      body: { webhookUrl },
    });
    expect(response.status).toBe(200);
  };

  const fund = async (merchant: TestMerchant, amount = '5.00') => {
    const response = await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      headers: { 'x-api-key': merchant.apiKey },
      body: { currency: 'USD', amount },
    });
    expect(response.status).toBe(201);
    return response.body.data;
  };

  const deliveriesOf = (businessId: string): Promise<any[]> =>
    server.runtime.dataSource.query(`SELECT * FROM webhook_deliveries WHERE business_id = $1 ORDER BY created_at`, [
      businessId,
    ]);

  const settled = (rows: any[], count = 1) =>
    rows.length >= count && rows.every((row) => ['succeeded', 'permanently_failed'].includes(row.status));

  test('a sandbox funding is POSTed to the webhookUrl as the documented { event, timestamp, data } envelope', async () => {
    const merchant = await server.signUp();
    const path = pathFor('envelope');
    await configureWebhook(merchant, receiver.url(path));
    const funded = await fund(merchant, '7.25');

    const [delivery] = await waitFor(() => deliveriesOf(merchant.businessId), settled);
    const [event] = await server.runtime.dataSource.query(`SELECT id, created_at FROM events WHERE business_id = $1`, [
      merchant.businessId,
    ]);
    const [request] = receiver.at(path);
    expect(receiver.at(path)).toHaveLength(1);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-service-event']).toBe('wallet.funded');
    expect(Object.keys(JSON.parse(request.body))).toEqual(['event', 'timestamp', 'data']);
    expect(JSON.parse(request.body)).toEqual({
      event: 'wallet.funded',
      timestamp: new Date(event.created_at).toISOString(),
      data: {
        walletId: funded.wallet.id,
        currency: 'usd',
        amount: '7.25',
        balance: '7.25',
        transactionId: funded.transactionId,
      },
    });
    expect(delivery).toMatchObject({
      event_id: event.id,
      event_type: 'wallet.funded',
      url: receiver.url(path),
      livemode: false,
      // The receiver is on loopback: of a private target's answer only the status is kept.
      status: 'succeeded',
      attempt_count: 1,
      response_status: 200,
      response_body: null,
      error_message: null,
      next_retry_at: null,
    });
    expect(delivery.payload).toEqual(JSON.parse(request.body));
    expect(delivery.last_attempt_at).toBeInstanceOf(Date);
    expect(delivery.response_time_ms).toBeGreaterThanOrEqual(0);
  });

  test('X-Service-Signature is the hex HMAC-SHA256 of the raw body keyed with the webhookSecret (the API secret)', async () => {
    const merchant = await server.signUp();
    const path = pathFor('signature');
    await configureWebhook(merchant, receiver.url(path));
    await fund(merchant);
    await waitFor(() => deliveriesOf(merchant.businessId), settled);

    const [request] = receiver.at(path);
    expect(request.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(verifiesServiceSignature(request, merchant.apiSecret)).toBe(true);
    expect(
      verifiesServiceSignature({ ...request, body: request.body.replace('5.00', '6.00') }, merchant.apiSecret),
    ).toBe(false);
  });

  test('a listed delivery keeps the exact bytes every attempt sent: X-Service-Signature verifies over its requestBody (REST and GraphQL)', async () => {
    const merchant = await server.signUp();
    const path = pathFor('exact-bytes');
    receiver.program(path, [{ status: 500 }]);
    await configureWebhook(merchant, receiver.url(path));
    const funded = await fund(merchant, '4.20');
    await waitFor(() => deliveriesOf(merchant.businessId), settled);
    const attempts = receiver.at(path);
    expect(attempts).toHaveLength(2);

    const events = await server.request('GET', '/api/v1/events', { headers: { 'x-api-key': merchant.apiKey } });
    const [event] = events.body.data.items;
    const [listed] = event.deliveries;
    expect(listed).toMatchObject({ status: 'succeeded', attemptCount: 2 });
    // The bytes as the event was recorded: `data` keeps its keys' order (a jsonb round trip sorts them).
    expect(listed.requestBody).toBe(
      JSON.stringify({
        event: 'wallet.funded',
        timestamp: event.createdAt,
        data: {
          walletId: funded.wallet.id,
          currency: 'usd',
          amount: '4.20',
          balance: '4.20',
          transactionId: funded.transactionId,
        },
      }),
    );
    for (const attempt of attempts) expect(attempt.body).toBe(listed.requestBody);

    // The receiver's rule, applied to the listed delivery: HMAC-SHA256 of the listed bytes with the API secret.
    const signature = crypto
      .createHmac('sha256', merchant.apiSecret)
      .update(Buffer.from(listed.requestBody, 'utf8'))
      .digest('hex');
    expect(verifiesServiceSignature({ ...attempts[1], body: listed.requestBody }, merchant.apiSecret)).toBe(true);
    expect(listed.requestHeaders).toEqual({
      'content-type': 'application/json',
      'user-agent': 'Tessera-Webhooks/1',
      'x-service-signature': signature,
      'x-service-event': 'wallet.funded',
      'webhook-id': listed.id,
      'webhook-timestamp': attempts[1].headers['webhook-timestamp'],
      'webhook-signature': attempts[1].headers['webhook-signature'],
    });
    expect(
      new Webhook(merchant.apiSecret, { format: 'raw' }).verify(listed.requestBody, listed.requestHeaders),
    ).toEqual(JSON.parse(listed.requestBody));

    const gql = await server.graphql(
      'query { events(first: 1) { edges { node { deliveries { id requestBody requestHeaders } } } } }',
      {},
      { 'x-api-key': merchant.apiKey },
    );
    expect(gql.body.data.events.edges[0].node.deliveries).toEqual([
      { id: listed.id, requestBody: listed.requestBody, requestHeaders: listed.requestHeaders },
    ]);
  });

  test('the Standard Webhooks headers verify with the standardwebhooks package, keyed with the API secret bytes', async () => {
    const merchant = await server.signUp();
    const path = pathFor('standard');
    await configureWebhook(merchant, receiver.url(path));
    await fund(merchant);
    const [delivery] = await waitFor(() => deliveriesOf(merchant.businessId), settled);

    const [request] = receiver.at(path);
    const headers = standardHeadersOf(request);
    expect(headers['webhook-id']).toBe(delivery.id);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(merchant.apiSecret, { format: 'raw' }).verify(request.body, headers)).toEqual(
      JSON.parse(request.body),
    );
    expect(new Webhook(Buffer.from(merchant.apiSecret).toString('base64')).verify(request.body, headers)).toEqual(
      JSON.parse(request.body),
    );
    expect(() =>
      new Webhook(merchant.apiSecret, { format: 'raw' }).verify(request.body.replace('5.00', '6.00'), headers),
    ).toThrow();
    const stale = { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) };
    expect(() => new Webhook(merchant.apiSecret, { format: 'raw' }).verify(request.body, stale)).toThrow();
  });

  test('failed attempts are retried on the schedule and the fifth failure makes the delivery permanently_failed', async () => {
    const merchant = await server.signUp();
    const path = pathFor('failing');
    receiver.program(
      path,
      Array.from({ length: 5 }, () => ({ status: 500, body: 'x'.repeat(5000) })),
    );
    await configureWebhook(merchant, receiver.url(path));
    await fund(merchant);

    const [delivery] = await waitFor(() => deliveriesOf(merchant.businessId), settled);
    expect(delivery).toMatchObject({
      status: 'permanently_failed',
      attempt_count: 5,
      response_status: 500,
      next_retry_at: null,
      error_message: 'The endpoint answered HTTP 500',
    });
    expect(delivery.response_body).toBeNull();

    const attempts = receiver.at(path);
    expect(attempts).toHaveLength(5);
    const gapsMs = attempts.slice(1).map((attempt, index) => attempt.at - attempts[index].at);
    gapsMs.forEach((gap, index) => {
      const scheduledMs = SCHEDULE_SECONDS[index + 1] * 1000;
      // Never early; how late a due attempt starts depends on the machine's load, which is no rule of the schedule.
      expect(gap).toBeGreaterThanOrEqual(scheduledMs - 20);
    });
    expect(new Set(attempts.map((attempt) => attempt.headers['webhook-id']))).toEqual(new Set([delivery.id]));
    expect(new Set(attempts.map((attempt) => attempt.body)).size).toBe(1);
    // Nothing is due and nothing claimed: no sixth attempt can be made.
    expect(delivery).toMatchObject({ due_at: null, claimed_at: null });
  });

  test('finding 11: an attempt that cannot unseal its signing secret is a failed attempt with a generic error, retried on the schedule, never left pending', async () => {
    const merchant = await server.signUp();
    const path = pathFor('unsealable');
    await configureWebhook(merchant, receiver.url(path));
    const [credential] = await server.runtime.dataSource.query(
      `SELECT id, secret_ciphertext FROM api_credentials WHERE business_id = $1 AND livemode = false`,
      [merchant.businessId],
    );
    // Sealed with another master key, as a CLI run without the server's data directory would have done.
    await server.runtime.dataSource.query(`UPDATE api_credentials SET secret_ciphertext = $2 WHERE id = $1`, [
      credential.id,
      new SecretBox('some-other-master-key').seal(merchant.apiSecret),
    ]);
    await fund(merchant);

    const [delivery] = await waitFor(() => deliveriesOf(merchant.businessId), settled);
    expect(delivery).toMatchObject({
      status: 'permanently_failed',
      attempt_count: SCHEDULE_SECONDS.length,
      response_status: null,
      next_retry_at: null,
      error_message: 'Not delivered: an internal error stopped this attempt; it is retried on the schedule',
    });
    expect(receiver.at(path)).toHaveLength(0);

    await server.runtime.dataSource.query(`UPDATE api_credentials SET secret_ciphertext = $2 WHERE id = $1`, [
      credential.id,
      credential.secret_ciphertext,
    ]);
    const redelivered = await server.request(
      'POST',
      `/api/v1/business/config/webhook-deliveries/${delivery.id}/redeliver`,
      { headers: { 'x-api-key': merchant.apiKey } },
    );
    expect(redelivered.status).toBe(201);
    const rows = await waitFor(
      () => deliveriesOf(merchant.businessId),
      (found) => settled(found, 2),
    );
    expect(rows[1]).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    expect(verifiesServiceSignature(receiver.at(path)[0], merchant.apiSecret)).toBe(true);
  });

  test('an endpoint slower than the timeout is a failed attempt, retried like any other failure', async () => {
    const merchant = await server.signUp();
    const path = pathFor('slow');
    // Its timer starts after the attempt's, in this same process: it always ends later.
    receiver.program(path, [{ status: 200, delayMs: TIMEOUT_MS + 700 }, { status: 204 }]);
    await configureWebhook(merchant, receiver.url(path));
    await fund(merchant);

    const [failed] = await waitFor(
      () => deliveriesOf(merchant.businessId),
      (rows) => rows[0]?.attempt_count >= 1,
      undefined,
      10,
    );
    // A private target's failed connection keeps neither its cause nor its duration (no port scanning).
    expect(failed).toMatchObject({
      status: 'failed',
      attempt_count: 1,
      response_status: null,
      error_message: NO_ANSWER,
      response_time_ms: null,
    });
    expect(failed.next_retry_at.getTime() - failed.last_attempt_at.getTime()).toBeGreaterThanOrEqual(
      SCHEDULE_SECONDS[1] * 1000,
    );

    const [delivery] = await waitFor(() => deliveriesOf(merchant.businessId), settled);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempt_count: 2,
      response_status: 204,
      error_message: null,
      next_retry_at: null,
    });
    expect(receiver.at(path)).toHaveLength(2);
  });

  test('without a webhookUrl an event records no delivery', async () => {
    const merchant = await server.signUp();
    await fund(merchant);
    expect(await deliveriesOf(merchant.businessId)).toEqual([]);

    const path = pathFor('removed');
    await configureWebhook(merchant, receiver.url(path));
    await configureWebhook(merchant, null);
    await fund(merchant);
    expect(await deliveriesOf(merchant.businessId)).toEqual([]);
  });

  test("a business's events are delivered only to its own webhookUrl, signed with its own secret", async () => {
    const [a, b] = [await server.signUp(), await server.signUp()];
    const [pathA, pathB] = [pathFor('tenant-a'), pathFor('tenant-b')];
    await configureWebhook(a, receiver.url(pathA));
    await configureWebhook(b, receiver.url(pathB));
    await fund(a, '1.00');
    await fund(a, '2.00');
    await fund(b, '3.00');
    await waitFor(
      () => deliveriesOf(a.businessId),
      (rows) => settled(rows, 2),
    );
    await waitFor(() => deliveriesOf(b.businessId), settled);

    expect((await deliveriesOf(a.businessId)).map((row) => row.url)).toEqual([
      receiver.url(pathA),
      receiver.url(pathA),
    ]);
    expect((await deliveriesOf(b.businessId)).map((row) => row.url)).toEqual([receiver.url(pathB)]);
    expect(
      receiver
        .at(pathA)
        .map((request) => JSON.parse(request.body).data.amount)
        .sort(),
    ).toEqual(['1.00', '2.00']);
    expect(receiver.at(pathB).map((request) => JSON.parse(request.body).data.amount)).toEqual(['3.00']);
    expect(receiver.at(pathA).every((request) => verifiesServiceSignature(request, a.apiSecret))).toBe(true);
    expect(
      receiver
        .at(pathB)
        .every(
          (request) =>
            verifiesServiceSignature(request, b.apiSecret) && !verifiesServiceSignature(request, a.apiSecret),
        ),
    ).toBe(true);
  });

  test('a test-mode event goes to the test webhookUrl, never to the live one', async () => {
    const merchant = await server.signUp();
    const [testPath, livePath] = [pathFor('test-mode'), pathFor('live-mode')];
    await configureWebhook(merchant, receiver.url(testPath));
    // Set directly: live URLs must be https through the API, and this receiver is plain http.
    await server.runtime.dataSource.query(
      `UPDATE business_settings SET webhook_url = $2 WHERE business_id = $1 AND livemode = true`,
      [merchant.businessId, receiver.url(livePath)],
    );
    await fund(merchant);
    const deliveries = await waitFor(() => deliveriesOf(merchant.businessId), settled);

    expect(deliveries.map((row) => [row.livemode, row.url])).toEqual([[false, receiver.url(testPath)]]);
    expect(receiver.at(testPath)).toHaveLength(1);
    // Deliveries are written with the event: no live row, so nothing is sent to the live URL.
    expect(receiver.at(livePath)).toHaveLength(0);
  });
});
