import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { YellowcardSettings } from '../../config';
import { toMinor } from '../../domain/shared/money';
import type {
  InboundWebhooks,
  ProviderEventApplication,
  ProviderEventHandler,
  WebhookVerification,
} from '../webhooks/port';
import { YELLOWCARD_PROVIDER, yellowCardConnection } from './connection';
import { outcomeOfStatus } from './payout-rail';

/** What Yellow Card posts (docs.yellowcard.engineering, "Webhooks"): the payment's or collection's id and state. */
interface YellowCardWebhookBody {
  id: string;
  sequenceId?: string;
  status?: string;
  apiKey?: string;
  event: string;
  errorCode?: string;
  executedAt?: number | string;
}

/**
 * How long after its arrival an event about a collection Tessera has not written (yet) is tried
 * again: the payer can be quicker than the commit of the collection Yellow Card just opened.
 */
const COLLECTION_NOT_WRITTEN_RETRY_MS = 10 * 60_000;

const retryIfMissing = (application: ProviderEventApplication) =>
  Date.now() - application.event.receivedAt.getTime() < COLLECTION_NOT_WRITTEN_RETRY_MS;

/** States in which a payment or collection is still on its way: their events are stored and ignored. */
const IN_PROGRESS = ['CREATED', 'PENDING_APPROVAL', 'PROCESS', 'PROCESSING', 'PENDING', 'PENDING_LIQUIDITY'];

/**
 * Yellow Card's webhooks, for its three kinds at once (declared once, by the payout-rail kind):
 * `POST /providers/yellowcard/webhooks`. Yellow Card signs each with `X-YC-Signature`, the base64
 * HMAC-SHA256 of the request body keyed with the API secret, and puts the API key in the body
 * (docs.yellowcard.engineering, "Webhooks"). An event is a state of a payment (`PAYMENT.<STATE>`) or
 * collection (`COLLECTION.<STATE>`); its id in the inbox is Yellow Card's id of the payment or
 * collection and the event (`<id>:<event>`), so a repeat is stored once and each state applied once.
 *
 * - PAYMENT.COMPLETE / FAILED / EXPIRED / CANCELLED: the payout named by the sequence id settles or
 *   fails (PayoutService.applyProviderOutcome).
 * - COLLECTION.COMPLETE: the collection is read from Yellow Card (the amount the payer sent), then
 *   received and settled (another amount than the collection's: failed, `amount_mismatch`);
 *   COLLECTION.FAILED / CANCELLED: failed; COLLECTION.EXPIRED: a pending collection expires.
 * - The states on the way (PENDING, PROCESSING, …): stored and ignored. Any other event: stored,
 *   logged and ignored (no handler).
 */
export function yellowCardWebhooks(settings: YellowcardSettings): InboundWebhooks {
  const livemode = !/sandbox/i.test(settings.apiBase);
  const handlers: Record<string, ProviderEventHandler> = {
    'PAYMENT.COMPLETE': payoutOutcome,
    'PAYMENT.FAILED': payoutOutcome,
    'PAYMENT.EXPIRED': payoutOutcome,
    'PAYMENT.CANCELLED': payoutOutcome,
    'COLLECTION.COMPLETE': collectionComplete(settings),
    'COLLECTION.FAILED': collectionFailed,
    'COLLECTION.CANCELLED': collectionFailed,
    'COLLECTION.EXPIRED': collectionExpired,
  };
  for (const state of IN_PROGRESS) {
    handlers[`PAYMENT.${state}`] = inProgress;
    handlers[`COLLECTION.${state}`] = inProgress;
  }
  return {
    provider: YELLOWCARD_PROVIDER,
    verify: (rawBody, headers) => verifyYellowCardEvent(rawBody, headers, settings, livemode),
    handlers,
  };
}

const bodyOf = (application: ProviderEventApplication) => application.event.payload as unknown as YellowCardWebhookBody;

const inProgress: ProviderEventHandler = async ({ event }) => ({
  ignored: `${event.type}: on its way, the final state decides`,
});

const payoutOutcome: ProviderEventHandler = async (application) => {
  const body = bodyOf(application);
  const state = application.event.type.slice('PAYMENT.'.length);
  const outcome = outcomeOfStatus(state, body.errorCode);
  if (!outcome || !body.sequenceId) return { ignored: `${application.event.type} names no payout` };
  return application.core.payouts.applyProviderOutcome(application.tx, { payoutId: body.sequenceId, outcome });
};

function collectionComplete(settings: YellowcardSettings): ProviderEventHandler {
  return async (application) => {
    const body = bodyOf(application);
    if (!body.sequenceId) return { ignored: `${application.event.type} names no collection` };
    // The event says which collection; Yellow Card's record of it says how much the payer sent.
    const collection = await yellowCardConnection(settings).client.collection(body.id);
    const amount = toMinor(String(collection.localAmount), collection.currency.toUpperCase());
    return application.core.collections.applyProviderReports(application.tx, {
      collectionId: body.sequenceId,
      reports: [
        { kind: 'received', amount },
        { kind: 'settled', amount },
      ],
      retryIfMissing: retryIfMissing(application),
    });
  };
}

const collectionFailed: ProviderEventHandler = async (application) => {
  const body = bodyOf(application);
  if (!body.sequenceId) return { ignored: `${application.event.type} names no collection` };
  const reason = body.errorCode
    ? body.errorCode.toLowerCase()
    : `yellowcard_${application.event.type.slice(11).toLowerCase()}`;
  return application.core.collections.applyProviderReports(application.tx, {
    collectionId: body.sequenceId,
    reports: [{ kind: 'failed', reason }],
    retryIfMissing: retryIfMissing(application),
  });
};

const collectionExpired: ProviderEventHandler = async (application) => {
  const body = bodyOf(application);
  if (!body.sequenceId) return { ignored: `${application.event.type} names no collection` };
  return application.core.collections.applyProviderReports(application.tx, {
    collectionId: body.sequenceId,
    reports: [{ kind: 'expired' }],
    retryIfMissing: retryIfMissing(application),
  });
};

function verifyYellowCardEvent(
  rawBody: Buffer,
  headers: IncomingHttpHeaders,
  settings: YellowcardSettings,
  livemode: boolean,
): WebhookVerification {
  const header = headers['x-yc-signature'];
  const signature = Array.isArray(header) ? header[0] : header;
  if (!signature) return { verified: false, reason: 'The X-YC-Signature header is missing' };
  const expected = crypto.createHmac('sha256', settings.apiSecret).update(rawBody).digest();
  const given = Buffer.from(signature, 'base64');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
    return { verified: false, reason: 'The Yellow Card signature does not verify' };
  let body: Partial<YellowCardWebhookBody>;
  try {
    body = JSON.parse(rawBody.toString('utf8')) as Partial<YellowCardWebhookBody>;
  } catch {
    return { verified: false, reason: 'The body is not a Yellow Card event' };
  }
  if (typeof body?.id !== 'string' || typeof body.event !== 'string')
    return { verified: false, reason: 'The body is not a Yellow Card event: it has no id or event' };
  // Signed with this secret, but naming another key: not an event of this account's requests.
  if (body.apiKey !== undefined && body.apiKey !== settings.apiKey)
    return { verified: false, reason: "The event was sent for another API key than this server's" };
  const type = body.event.toUpperCase();
  return {
    verified: true,
    event: {
      id: `${body.id}:${type}`,
      type,
      livemode,
      payload: body,
    },
  };
}
