import type { Authorization, VaultedCard } from '../../providers/card-acquirer/port';
import type { CardDetails } from '../shared/card';
import type { DisputeStatus, PaymentSource, PaymentStatus } from './payment.entities';

/**
 * The card a charge takes, however the payer or merchant gave it: typed card details (the
 * server-to-server API), a single-use browser token, a customer's saved card, or a card the caller
 * already vaulted (the hosted page vaults the card as it is submitted).
 */
export type CardSource =
  | { kind: 'card'; details: CardDetails }
  | { kind: 'token'; token: string }
  | { kind: 'saved'; paymentMethodId: string }
  | { kind: 'vaulted'; vaulted: VaultedCard; paymentMethodId?: string | null; customerId?: string | null };

/** What started a charge other than the server-to-server API (a checkout session, an invoice, a recurring gift). */
export interface ChargeOrigin {
  source: PaymentSource;
  sourceId: string;
}

/**
 * One card charge. Without `origin` it is the documented server-to-server charge: it must be
 * enabled for the business and mode, and the same parameters within 60 s return the same payment.
 * The client address is never a command field: it is the context's (`ctx.clientIp`).
 */
export interface ChargeCommand {
  /** Minor units of `currency`; must be positive. */
  amount: bigint;
  currency: string;
  card: CardSource;
  /** The payer's email (lower-cased); a saved card's customer email when omitted. */
  email?: string;
  metadata?: Record<string, unknown> | null;
  origin?: ChargeOrigin;
  /**
   * The payer's card is to be charged again later, off-session (a checkout session that starts a
   * recurring gift): an acquirer with customers keeps it for the payer's customer as it charges it.
   */
  keepCard?: boolean;
}

/**
 * Refunds `amount`, or everything still refundable when omitted. The amount is a plain decimal in
 * major units of the PAYMENT's currency, which only the domain knows: it converts it (decimal places
 * of that currency, positive) after finding the payment and checking it can be refunded.
 */
export interface RefundCommand {
  paymentId: string;
  amount?: string | number;
  reason?: string | null;
}

export interface OpenDisputeCommand {
  paymentId: string;
  reason?: string;
}

export interface ResolveDisputeCommand {
  disputeId: string;
  won: boolean;
}

/**
 * A dispute the card acquirer reports (Stripe's `charge.dispute.*`): the payment it concerns (as the
 * acquirer names it: it may be none of Tessera's), the acquirer's id of the dispute, and what it
 * took, in minor units of `currency`.
 */
export interface AcquirerDisputeCommand {
  paymentId: string;
  acquirerDisputeId: string;
  amount: bigint;
  currency: string;
  reason: string;
}

/** The acquirer's decision on a dispute (Stripe's `charge.dispute.closed`, won or lost). */
export interface AcquirerDisputeOutcomeCommand extends AcquirerDisputeCommand {
  won: boolean;
}

export interface PaymentFilters {
  status?: PaymentStatus;
  /** A payment's short reference as typed (see payment-reference.ts): 12 hex digits. */
  reference?: string;
  email?: string;
  customerId?: string;
  from?: Date;
  to?: Date;
}

export interface DisputeFilters {
  status?: DisputeStatus;
}

/**
 * The payer back from the acquirer's 3-D Secure page at Tessera's return route
 * (`/3ds/return/<paymentId>`): the payment is the path's; `reference` is what the acquirer appended
 * to the URL (Stripe's `payment_intent`), checked to be that payment's, never trusted to find it.
 */
export interface AuthenticationReturnCommand {
  paymentId: string;
  reference: string | null;
}

/**
 * An acquirer's own later word on a payment it was asked to take (its signed webhook, applied by
 * the inbox): the outcome of a payment whose payer never came back from 3-D Secure, or whose answer
 * was lost. `acquirer` is the provider's name: a payment of a mode another acquirer serves is left alone.
 */
export interface AcquirerOutcomeCommand {
  paymentId: string;
  acquirer: string;
  authorization: Authorization;
}
