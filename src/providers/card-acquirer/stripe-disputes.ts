import type Stripe from 'stripe';
import type { Core } from '../../domain/core';
import type { RequestContext } from '../../domain/shared/context';
import type { ProviderEventApplication, ProviderEventHandled, ProviderEventHandler } from '../webhooks/port';
import { StripeCardAcquirer, tesseraAmountOf } from './stripe';

/**
 * Stripe's disputes drive Tessera's (docs/live.md, Disputes), each in the inbox's transaction:
 * - `charge.dispute.created`, and `charge.dispute.funds_withdrawn` (an inquiry that became a
 *   chargeback), open Tessera's dispute of the payment with Stripe's amount and reason: the debit
 *   and Tessera's dispute fee, `payment.disputed`. Once per Stripe dispute, however often it is told.
 * - `charge.dispute.closed` won or lost resolves it as the sandbox does (won returns the amount,
 *   lost keeps it), once; a closing Tessera never heard opened is opened first.
 * An inquiry (`warning_*`: Stripe withdraws nothing) and its `warning_closed` are ignored, as is a
 * dispute of a PaymentIntent Tessera did not make. `charge.dispute.updated` (evidence, status on
 * the way) has no handler: stored and marked ignored, as every type without one is.
 */
export const stripeDisputeHandlers: Readonly<Record<string, ProviderEventHandler>> = {
  'charge.dispute.created': openDispute,
  'charge.dispute.funds_withdrawn': openDispute,
  'charge.dispute.closed': closeDispute,
};

async function openDispute({ tx, core, event }: ProviderEventApplication): Promise<ProviderEventHandled> {
  const dispute = disputeOf(event.payload);
  if (isInquiry(dispute)) return { ignored: `Stripe dispute ${dispute.id} is an inquiry (${dispute.status})` };
  const command = await disputeCommandOf(core, tx, dispute);
  if (!command) return unknownIntent(dispute);
  const result = await core.disputes.openAtAcquirer(tx, command);
  if (result.outcome === 'unknown-payment') return unknownPayment(dispute, command.paymentId);
}

async function closeDispute({ tx, core, event }: ProviderEventApplication): Promise<ProviderEventHandled> {
  const dispute = disputeOf(event.payload);
  if (dispute.status !== 'won' && dispute.status !== 'lost')
    return { ignored: `Stripe dispute ${dispute.id} closed ${dispute.status}: no chargeback to decide` };
  const command = await disputeCommandOf(core, tx, dispute);
  if (!command) return unknownIntent(dispute);
  const result = await core.disputes.resolveAtAcquirer(tx, { ...command, won: dispute.status === 'won' });
  if (result.outcome === 'unknown-payment') return unknownPayment(dispute, command.paymentId);
}

/** Stripe's dispute as the domain takes it, or null when its PaymentIntent is not one Tessera made. */
async function disputeCommandOf(core: Core, tx: RequestContext, dispute: Stripe.Dispute) {
  const paymentId = await paymentIdOfDispute(core, tx, dispute);
  if (!paymentId) return null;
  return {
    paymentId,
    acquirerDisputeId: dispute.id,
    amount: tesseraAmountOf(dispute.amount, dispute.currency),
    currency: dispute.currency.toUpperCase(),
    reason: dispute.reason,
  };
}

/**
 * The Tessera payment a dispute concerns: the payment that recorded the dispute's PaymentIntent as
 * its acquirer reference, read in the inbox's transaction; else (a payment from before references
 * were kept) the intent's `metadata.tessera_payment_id`, asked of Stripe. The one place that finds it.
 */
async function paymentIdOfDispute(core: Core, tx: RequestContext, dispute: Stripe.Dispute): Promise<string | null> {
  const intent = intentIdOf(dispute);
  if (!intent) return null;
  return (await core.payments.idOfAcquirerReference(tx, intent)) ?? stripeAcquirerOf(core).paymentIdOfIntent(intent);
}

const intentIdOf = (dispute: Stripe.Dispute) =>
  typeof dispute.payment_intent === 'string' ? dispute.payment_intent : (dispute.payment_intent?.id ?? null);

/** The server's Stripe account's adapter: its webhooks are received only when Stripe is configured. */
function stripeAcquirerOf(core: Core): StripeCardAcquirer {
  const { live, test } = core.providers.modesOf('card-acquirer');
  const stripe = [live, test].find((acquirer) => acquirer instanceof StripeCardAcquirer);
  if (!stripe) throw new Error('Stripe is not the card acquirer of this server: the event waits');
  return stripe;
}

const disputeOf = (payload: Record<string, unknown>) =>
  (payload as unknown as Stripe.Event).data.object as Stripe.Dispute;

/** Inquiries (`warning_needs_response`, `warning_under_review`, `warning_closed`) take no money. */
const isInquiry = (dispute: Stripe.Dispute) => dispute.status.startsWith('warning_');

const unknownIntent = (dispute: Stripe.Dispute) => ({
  ignored: `Stripe dispute ${dispute.id}: its PaymentIntent ${intentIdOf(dispute) ?? '(none)'} is none of Tessera's`,
});

const unknownPayment = (dispute: Stripe.Dispute, paymentId: string) => ({
  ignored: `Stripe dispute ${dispute.id}: Tessera has no payment ${paymentId}`,
});
