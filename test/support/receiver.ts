import crypto from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import type { TestServer } from './harness';
import { waitUntil } from './wait';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Answer {
  status: number;
  delayMs?: number;
  body?: string;
}

/** A merchant's endpoint on 127.0.0.1: records raw bodies and headers, answers as programmed per path (200 by default). */
export class Receiver {
  readonly received: Received[] = [];
  private readonly answers = new Map<string, Answer[]>();
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      this.received.push({
        path,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const answer = this.answers.get(path)?.shift() ?? { status: 200 };
      setTimeout(() => {
        if (response.destroyed) return;
        response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? 'ok');
      }, answer.delayMs ?? 0);
    });
  });
  private port = 0;

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(path: string) {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  program(path: string, answers: Answer[]) {
    this.answers.set(path, [...answers]);
  }

  at(path: string) {
    return this.received.filter((request) => request.path === path);
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * The documented receiver rule: HMAC-SHA256 of the raw bytes keyed with the secret, compared in
 * constant time with the hex signature header (`x-service-signature`, or `x-service-signature-previous`).
 */
export function verifiesServiceSignature(request: Received, secret: string, header = 'x-service-signature'): boolean {
  const expected = crypto.createHmac('sha256', secret).update(request.body).digest();
  const given = Buffer.from(String(request.headers[header] ?? ''), 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** The Standard Webhooks headers of a received request, as a verifying library takes them. */
export const standardHeadersOf = (request: Received) => ({
  'webhook-id': String(request.headers['webhook-id']),
  'webhook-timestamp': String(request.headers['webhook-timestamp']),
  'webhook-signature': String(request.headers['webhook-signature']),
});

/**
 * Waits until none of the business's webhook deliveries is due or claimed: every attempt begun has
 * been answered and its outcome written (a claim is released only then), so whatever was sent is at
 * the receiver, and nothing more will be until a retry falls due. A wait for state, where a test
 * must show that nothing else (a second copy, another target) arrives.
 */
export async function deliveriesAtRest(server: TestServer, businessId: string): Promise<void> {
  await waitUntil(async () => {
    const [{ busy }] = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS busy FROM webhook_deliveries WHERE business_id = $1 AND (claimed_at IS NOT NULL OR due_at <= now())`,
      [businessId],
    );
    return busy === 0;
  }, `the webhook deliveries of business ${businessId} at rest`);
}
