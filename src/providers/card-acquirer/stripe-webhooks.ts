import type { IncomingHttpHeaders } from 'node:http';
import Stripe from 'stripe';
import type { StripeSettings } from '../../config';
import { isUuid } from '../../domain/shared/ids';
import type {
  InboundWebhooks,
  ProviderEventApplication,
  ProviderEventHandler,
  WebhookVerification,
} from '../webhooks/port';
import { authorizationOf } from './stripe';
import { stripeDisputeHandlers } from './stripe-disputes';

/** Stripe's provider name: its webhooks are at `POST /providers/stripe/webhooks`. */
export const STRIPE_PROVIDER = 'stripe';

/**
 * How old a signed event may be (Stripe-Signature's `t=`), in seconds: Stripe's own default (5
 * minutes). An older signature is a replay, refused; Stripe signs each retry anew.
 */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = Stripe.webhooks.DEFAULT_TOLERANCE;

/**
 * Stripe's webhooks, checked with its official SDK against the endpoint's signing secret
 * (STRIPE_WEBHOOK_SECRET). Handlers: the asynchronous outcomes of a PaymentIntent
 * (`payment_intent.succeeded`, `payment_intent.payment_failed`), which finish a payment whose payer
 * never came back from 3-D Secure, or whose answer was lost; disputes (stripe-disputes.ts). Every
 * other type is stored and marked ignored.
 */
export function stripeWebhooks(settings: Pick<StripeSettings, 'secretKey' | 'webhookSecret'>): InboundWebhooks {
  const livemode = isLiveKey(settings.secretKey);
  return {
    provider: STRIPE_PROVIDER,
    verify: (rawBody, headers) => verifyStripeEvent(rawBody, headers, settings.webhookSecret, livemode),
    handlers: {
      'payment_intent.succeeded': applyIntentOutcome,
      'payment_intent.payment_failed': applyIntentOutcome,
      ...stripeDisputeHandlers,
      'refund.updated': refundFailed,
      'charge.refund.updated': refundFailed,
    },
  };
}

/**
 * A PaymentIntent's outcome, for the Tessera payment its metadata names (`tessera_payment_id`, set
 * by the adapter): applied in the inbox's transaction as the payer's return would have, to a payment
 * still waiting for it; a payment already finished, another acquirer's or none is left alone.
 */
async function applyIntentOutcome({ tx, core, event }: ProviderEventApplication): Promise<void> {
  const intent = (event.payload as { data?: { object?: Partial<Stripe.PaymentIntent> } }).data?.object;
  const paymentId = intent?.metadata?.tessera_payment_id;
  if (!intent || typeof paymentId !== 'string') return;
  const status = event.type === 'payment_intent.succeeded' ? 'succeeded' : 'requires_payment_method';
  await core.charges.applyAcquirerOutcome(tx, {
    paymentId,
    acquirer: STRIPE_PROVIDER,
    authorization: authorizationOf({ ...intent, status } as Stripe.PaymentIntent),
  });
}

/**
 * A Refund whose status is now `failed` (https://docs.stripe.com/refunds#failed-refunds): the card
 * network returned the money to the Stripe balance, so Tessera's refund is reversed in the ledger.
 * Stripe tells it twice (both event types); the reversal happens once (RefundService.reverseFailed).
 * A refund Tessera did not make (no `tessera_refund_id`) is not Tessera's to reverse.
 */
const refundFailed: ProviderEventHandler = async ({ tx, core, event }) => {
  const refund = (event.payload.data as { object?: Partial<Stripe.Refund> } | undefined)?.object;
  const refundId = refund?.metadata?.tessera_refund_id;
  if (refund?.object !== 'refund' || refund.status !== 'failed' || !refundId || !isUuid(refundId)) return;
  await core.refunds.reverseFailed(tx, refundId);
};

/** A live key (`sk_live_…`, `rk_live_…`) moves real money; its account's live-mode endpoint sends live events. */
const isLiveKey = (key: string) => /^(sk|rk)_live_/.test(key);

function verifyStripeEvent(
  rawBody: Buffer,
  headers: IncomingHttpHeaders,
  secret: string,
  livemode: boolean,
): WebhookVerification {
  const signature = headers['stripe-signature'];
  if (typeof signature !== 'string' || signature === '')
    return { verified: false, reason: 'The Stripe-Signature header is missing' };
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature, secret, STRIPE_SIGNATURE_TOLERANCE_SECONDS);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError)
      return { verified: false, reason: `The Stripe signature does not verify: ${firstSentenceOf(error.message)}` };
    // A signed body that is not JSON (constructEvent parses it after the check).
    return { verified: false, reason: 'The body is not a Stripe event' };
  }
  if (typeof event?.id !== 'string' || typeof event.type !== 'string')
    return { verified: false, reason: 'The body is not a Stripe event: it has no id or type' };
  // Signed, but from the other mode's endpoint (its secret put in this server's settings): an event
  // of objects this server's key never made. Refused, so Stripe's delivery log shows it.
  if ((event.livemode === true) !== livemode)
    return {
      verified: false,
      reason: `A ${event.livemode ? 'live' : 'test'}-mode event, and this server's Stripe key is a ${livemode ? 'live' : 'test'}-mode key`,
    };
  return {
    verified: true,
    event: {
      id: event.id,
      type: event.type,
      livemode: event.livemode === true,
      payload: event as unknown as Record<string, unknown>,
    },
  };
}

/** The SDK's message without its advice and links (the provider is the reader, in its dashboard's delivery log). */
const firstSentenceOf = (message: string) => message.split(/\.\s|\n/)[0].trim();
