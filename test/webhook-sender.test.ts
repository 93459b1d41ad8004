import crypto from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { WebhookDelivery, WebhookDeliveryTarget } from '../src/domain/webhooks/webhook-delivery.entity';
import { NO_ANSWER, WebhookSender } from '../src/domain/webhooks/webhook-sender';
import { WebhookTargetPolicy } from '../src/domain/shared/url-policy';
import { PATIENCE_MS } from './support/wait';

/**
 * The HTTP side of an attempt (WebhookSender.post) against a real local server: what the sender
 * does with an answer. The target policy is the one thing replaced: it lets 127.0.0.1 through as a
 * public target (the only kind whose answer body is kept), or as a private one where a test says so.
 */
describe('a webhook attempt over HTTP', () => {
  /**
   * The time limit of the attempts that check the limit itself: short, so the slow answer outlives it.
   * Every other attempt expects an answer and gets PATIENCE_MS, which a busy machine's answer never
   * comes near (a 400 ms limit there is a bet on speed: issue 25).
   */
  const TIMEOUT_MS = 400;
  /** When the slow answer's body ends: long after the time limit, however late a busy machine fires it. */
  const SLOW_BODY_MS = 10_000;
  let server: http.Server;
  let base: string;
  const received: Array<{ path: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  const handlers = new Map<string, (response: http.ServerResponse) => void>();

  const policy = (privateTarget: boolean) =>
    ({
      refusal: async () => null,
      allowsPrivateTargets: () => privateTarget,
      isPrivateTarget: async () => privateTarget,
    }) as unknown as WebhookTargetPolicy;
  const sender = (privateTarget = false, timeoutMs = PATIENCE_MS) =>
    new WebhookSender({ timeoutMs, retryScheduleSeconds: [0], targets: policy(privateTarget) });
  const senders: WebhookSender[] = [];

  const delivery = (url: string) =>
    Object.assign(new WebhookDelivery(), {
      id: crypto.randomUUID(),
      url,
      livemode: false,
      target: WebhookDeliveryTarget.WEBHOOK_URL,
      eventType: 'bench.tick',
      requestBody: JSON.stringify({ event: 'bench.tick', data: { n: 1 } }),
    });
  const postTo = (url: string, privateTarget = false, timeoutMs = PATIENCE_MS) => {
    const made = sender(privateTarget, timeoutMs);
    senders.push(made);
    return made.post(delivery(url), { current: 'sk_test_secret', previous: null }, new Date());
  };
  const post = (path: string, privateTarget = false, timeoutMs = PATIENCE_MS) =>
    postTo(`${base}${path}`, privateTarget, timeoutMs);

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          path: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const handler = handlers.get(new URL(request.url ?? '/', 'http://x').pathname);
        if (handler) handler(response);
        else response.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    handlers.set('/ok', (response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks'));
    handlers.set('/large', (response) => response.writeHead(500).end('y'.repeat(5000)));
    handlers.set('/redirect', (response) => response.writeHead(302, { location: `${base}/ok` }).end());
    handlers.set('/slow-body', (response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('started ');
      const timer = setTimeout(() => response.end('finished'), SLOW_BODY_MS);
      response.on('close', () => clearTimeout(timer));
    });
    handlers.set('/nul', (response) => response.writeHead(400).end('bad\u0000byte'));
    handlers.set('/secret', (response) => response.writeHead(503).end('internal details'));
  });

  afterAll(async () => {
    await Promise.all(senders.map((made) => made.close()));
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    received.length = 0;
  });

  test('a 2xx is a success: the stored body byte for byte, signed, with the query string kept', async () => {
    const outcome = await post('/ok?source=tessera');
    expect(outcome).toMatchObject({ ok: true, responseStatus: 200, responseBody: 'thanks', errorMessage: null });
    expect(received).toHaveLength(1);
    expect(received[0].path).toBe('/ok?source=tessera');
    const expected = crypto.createHmac('sha256', 'sk_test_secret').update(received[0].body).digest('hex');
    expect(received[0].headers['x-service-signature']).toBe(expected);
    expect(outcome.requestHeaders?.['x-service-signature']).toBe(expected);
  });

  test("a public target's answer keeps its first 2 KB", async () => {
    const outcome = await post('/large');
    expect(outcome).toMatchObject({ ok: false, responseStatus: 500, errorMessage: 'The endpoint answered HTTP 500' });
    expect(outcome.responseBody).toBe('y'.repeat(2048));
  });

  test('a NUL in the answer is kept as U+FFFD (PostgreSQL text cannot hold one)', async () => {
    const outcome = await post('/nul');
    expect(outcome).toMatchObject({ ok: false, responseStatus: 400, responseBody: 'bad\uFFFDbyte' });
  });

  test('a redirect is not followed: the attempt fails with its status and the Location is never called', async () => {
    const outcome = await post('/redirect');
    expect(outcome).toMatchObject({ ok: false, responseStatus: 302, errorMessage: 'The endpoint answered HTTP 302' });
    expect(received.map((request) => request.path)).toEqual(['/redirect']);
  });

  test('an answer whose body is still coming at the time limit is no answer', async () => {
    const outcome = await post('/slow-body', false, TIMEOUT_MS);
    expect(outcome).toMatchObject({ ok: false, responseStatus: null, responseBody: null, errorMessage: NO_ANSWER });
    expect(outcome.responseTimeMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(outcome.responseTimeMs).toBeLessThan(SLOW_BODY_MS);
  });

  test('a URL with credentials in it is not sent', async () => {
    const outcome = await postTo(`${base.replace('http://', 'http://user:pass@')}/ok`);
    expect(outcome).toMatchObject({ ok: false, responseStatus: null, errorMessage: NO_ANSWER });
    expect(received).toHaveLength(0);
  });

  test("a private target's answer is its status only, and its connections are reused", async () => {
    const made = sender(true);
    senders.push(made);
    const connections = new Set<unknown>();
    const onRequest = (request: http.IncomingMessage) => connections.add(request.socket);
    server.on('request', onRequest);
    try {
      for (let i = 0; i < 6; i += 1) {
        const outcome = await made.post(
          delivery(`${base}/secret`),
          { current: 'sk_test_secret', previous: null },
          new Date(),
        );
        expect(outcome).toMatchObject({
          ok: false,
          responseStatus: 503,
          responseBody: null,
          responseTimeMs: expect.any(Number),
        });
      }
    } finally {
      server.off('request', onRequest);
    }
    expect(received).toHaveLength(6);
    // Kept alive and reused. The next attempt may start before the last connection is back in the
    // pool, so another one may open.
    expect(connections.size).toBeLessThanOrEqual(3);
  });

  test("a private target's answer whose body is still coming at the time limit is no answer, as a public one's", async () => {
    const outcome = await post('/slow-body', true, TIMEOUT_MS);
    expect(outcome).toMatchObject({
      ok: false,
      responseStatus: null,
      responseBody: null,
      responseTimeMs: null,
      errorMessage: NO_ANSWER,
    });
  });
});
