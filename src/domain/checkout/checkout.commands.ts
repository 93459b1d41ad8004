import { CardDetails } from '../shared/card';
import { FieldErrors } from '../shared/errors';
import { CheckoutPaymentMethod, CheckoutSessionSource, CheckoutSessionStatus } from './checkout-session.entity';

/** POST /business/checkout/session: one amount (minor units of `currency`) to be paid once on the hosted page. */
export interface CreateCheckoutSessionCommand {
  amount: bigint;
  /** Upper-case, supported (the face normalizes it before converting the amount). */
  currency: string;
  /** Lower-cased; null: the page asks the payer. */
  customerEmail: string | null;
  successUrl: string;
  cancelUrl: string | null;
  description: string | null;
  metadata: Record<string, unknown> | null;
  /** What the page offers (at least one; default card). Local rails need a channel in `currency`. */
  paymentMethods: CheckoutPaymentMethod[];
}

export interface CheckoutSessionFilters {
  status?: CheckoutSessionStatus;
  source?: CheckoutSessionSource;
}

/** A form field as the page read it: its value, or what the payer must correct (per field). */
export type FormField<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/**
 * POST /checkout/<token>: the hosted card form in domain terms. The page checks the shape of each
 * field; the domain decides whether the errors count (the email only when the session has none)
 * and whether anything is charged.
 */
export interface PayCheckoutSessionCommand {
  token: string;
  card: FormField<CardDetails>;
  /** The email typed on the page (lower-cased); used only when the session has none. */
  email: FormField<string>;
  /** The payer ticked "give this amount every interval" (honoured only when the session offers it). */
  recurring: boolean;
}
