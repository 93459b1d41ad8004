import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { Agent, Dispatcher } from 'undici';
import { WebhookDelivery, WebhookDeliveryTarget } from './webhook-delivery.entity';
import { SigningSecrets } from './treasury-webhook-endpoint.service';
import { NonPublicAddressError, WebhookTargetPolicy, publicAddressLookup } from '../shared/url-policy';

const RESPONSE_BODY_LIMIT_BYTES = 2048;

/**
 * Every attempt without an HTTP answer reads the same: telling a refused connection from a silent
 * port or an unknown host would let a webhook URL scan networks the server can reach.
 */
export const NO_ANSWER = 'No HTTP answer: the connection failed, was closed, or took longer than the time limit';

export interface WebhookSettings {
  timeoutMs: number;
  /** Delay before each attempt in seconds; attempt n waits `retryScheduleSeconds[n - 1]`. */
  retryScheduleSeconds: number[];
  /** Which URLs may receive webhooks, and how their hosts resolve. */
  targets: WebhookTargetPolicy;
}

export interface AttemptOutcome {
  ok: boolean;
  /** The headers of the request made; null when none was (refused before sending). */
  requestHeaders: Record<string, string> | null;
  responseStatus: number | null;
  responseBody: string | null;
  responseTimeMs: number | null;
  errorMessage: string | null;
}

/**
 * The headers of a delivery: the documented `X-Service-Signature` (hex HMAC-SHA256 of the body)
 * and, in addition, Standard Webhooks' `webhook-*` headers. Both are keyed with the UTF-8 bytes of
 * the secret (the business's API secret of the mode, or a treasury endpoint's own secret); a
 * Standard Webhooks library takes it as `new Webhook(secret, { format: 'raw' })` (or base64 of
 * those bytes). During a treasury rotation's grace period the retired secret signs too:
 * `X-Service-Signature-Previous`, and a second `v1,` entry in `webhook-signature`.
 */
export function signedHeaders(
  body: string,
  secrets: SigningSecrets,
  delivery: { id: string; eventType: string },
  sentAt: Date,
): Record<string, string> {
  const timestamp = Math.floor(sentAt.getTime() / 1000).toString();
  const keys = secrets.previous ? [secrets.current, secrets.previous] : [secrets.current];
  const hmac = (secret: string, message: string) =>
    crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(message, 'utf8');
  return {
    'content-type': 'application/json',
    'user-agent': 'Tessera-Webhooks/1',
    'x-service-signature': hmac(secrets.current, body).digest('hex'),
    ...(secrets.previous ? { 'x-service-signature-previous': hmac(secrets.previous, body).digest('hex') } : {}),
    'x-service-event': delivery.eventType,
    'webhook-id': delivery.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': keys
      .map((secret) => `v1,${hmac(secret, `${delivery.id}.${timestamp}.${body}`).digest('base64')}`)
      .join(' '),
  };
}

/**
 * The headers of a `/v1` delivery (design section 11): `Service-Signature`, the hex HMAC-SHA256 of
 * the raw body keyed with the UTF-8 bytes of the business's `/v1` secret key of the mode.
 */
export function v1SignedHeaders(body: string, key: string, delivery: { eventType: string }): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Tessera-Webhooks/1',
    'service-signature': crypto.createHmac('sha256', Buffer.from(key, 'utf8')).update(body, 'utf8').digest('hex'),
    'service-event': delivery.eventType,
  };
}

/**
 * The HTTP side of a delivery attempt: signs and POSTs the stored body, through dispatchers that
 * connect only where the target policy allows.
 */
export class WebhookSender {
  /** Deliveries connect only to the public addresses their host resolved to at connect time... */
  private readonly publicDispatcher: Dispatcher;
  /** ...except test-mode deliveries to private targets, where the deployment allows them. */
  private readonly privateDispatcher: Dispatcher;

  constructor(private readonly settings: WebhookSettings) {
    this.publicDispatcher = new Agent({ connect: { lookup: publicAddressLookup(settings.targets.resolveHost) } });
    this.privateDispatcher = new Agent();
  }

  /** Closes the deliveries' idle connections. */
  async close(): Promise<void> {
    await Promise.all([this.publicDispatcher.close(), this.privateDispatcher.close()]);
  }

  /**
   * POSTs the delivery's stored body, byte for byte; a 2xx within the timeout (body included) is a
   * success, anything else a failure. The URL is judged again first (WebhookTargetPolicy). A private
   * target (allowed in test mode by the deployment) keeps only the status of its answer: never its
   * body, nor how long a failed connection took, so a webhook cannot read or map internal services.
   */
  async post(delivery: WebhookDelivery, secrets: SigningSecrets, sentAt: Date): Promise<AttemptOutcome> {
    const { targets } = this.settings;
    const refusal = await targets.refusal(delivery.url, delivery.livemode);
    if (refusal) {
      return {
        ok: false,
        requestHeaders: null,
        responseStatus: null,
        responseBody: null,
        responseTimeMs: 0,
        errorMessage: `Not delivered: the URL ${refusal}`,
      };
    }
    const privateTarget =
      targets.allowsPrivateTargets(delivery.livemode) && (await targets.isPrivateTarget(delivery.url));
    const body = delivery.requestBody;
    const headers =
      delivery.target === WebhookDeliveryTarget.V1
        ? v1SignedHeaders(body, secrets.current, delivery)
        : signedHeaders(body, secrets, delivery, sentAt);
    // undici's request, not fetch: no WHATWG Request, Response, streams or AbortSignal per attempt
    // (they were a third of the process's CPU per delivery, docs/performance.md). It follows no
    // redirect; the time limit covers the body too, as `abort` destroys the request at any stage.
    const abort = new EventEmitter();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.emit('abort');
    }, this.settings.timeoutMs);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const response = await (privateTarget ? this.privateDispatcher : this.publicDispatcher).request({
        ...originAndPath(delivery.url),
        method: 'POST',
        headers,
        body,
        signal: abort,
      });
      const responseBody = privateTarget
        ? await discardBody(response.body)
        : await readTruncated(response.body, RESPONSE_BODY_LIMIT_BYTES);
      // The time limit covers the body: one still coming when it struck is no answer.
      if (timedOut) throw new Error('The answer did not end within the time limit');
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return {
        ok,
        requestHeaders: headers,
        responseStatus: response.statusCode,
        responseBody,
        responseTimeMs: elapsed(),
        errorMessage: ok ? null : `The endpoint answered HTTP ${response.statusCode}`,
      };
    } catch (error) {
      const refused = nonPublicAddressIn(error);
      return {
        ok: false,
        requestHeaders: headers,
        responseStatus: null,
        responseBody: null,
        responseTimeMs: privateTarget ? null : elapsed(),
        errorMessage: refused ? `Not delivered: the URL ${refused.message}` : NO_ANSWER,
      };
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * What a dispatcher's request takes of a URL: its origin, and its path with the query. A URL with
 * credentials in it is not sent (as fetch refuses it): they would be dropped silently.
 */
function originAndPath(url: string): { origin: string; path: string } {
  const parsed = new URL(url);
  if (parsed.username || parsed.password) throw new TypeError('A webhook URL with credentials in it is not sent');
  return { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
}

/** The connect-time refusal of a live delivery, wherever fetch wrapped it. */
function nonPublicAddressIn(error: unknown): NonPublicAddressError | null {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof NonPublicAddressError) return current;
  }
  return null;
}

/**
 * Reads at most `limit` bytes of the body and drops the rest unread. A NUL becomes U+FFFD: the
 * answer is stored as PostgreSQL text, which cannot hold one (and the attempt would go unrecorded).
 */
export async function readTruncated(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  // Leaving the loop early destroys the body: the rest is never read.
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    chunks.push(Buffer.from(chunk));
    length += chunk.byteLength;
    if (length >= limit) break;
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8').replaceAll('\u0000', '\uFFFD');
}

/**
 * Drops a private target's body: only its status is kept. It is read into nothing (up to 2 KB; a
 * longer body closes the connection), not destroyed before its end, which costs an error per
 * attempt and cannot tell a body that ended in time from one still coming.
 */
async function discardBody(body: { dump(options: { limit: number }): Promise<unknown> }): Promise<null> {
  await body.dump({ limit: RESPONSE_BODY_LIMIT_BYTES });
  return null;
}
