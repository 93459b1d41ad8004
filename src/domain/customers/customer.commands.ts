import { VaultedCard } from '../../providers/card-acquirer/port';
import { CardDetails } from '../shared/card';

/** The optional profile fields: absent leaves a field as it is, null clears it. */
export interface CustomerProfileFields {
  /** The merchant's own id for the customer. */
  userId?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  phoneNumber?: string | null;
}

/** Creates a profile for an email (lower-cased) that has none in this business and mode. */
export interface CreateCustomerCommand extends CustomerProfileFields {
  email: string;
}

/** Changes a profile; a new email (lower-cased) links that email's earlier payments. */
export interface UpdateCustomerCommand extends CustomerProfileFields {
  customerId: string;
  email?: string;
}

/** The card to save: typed by the payer (vaulted with the acquirer) or a card token made in the browser (consumed). */
export type CardSource = { kind: 'card'; card: CardDetails } | { kind: 'token'; token: string };

export interface AttachPaymentMethodCommand {
  customerId: string;
  source: CardSource;
}

/** A saved card of a customer (detach, make default). */
export interface PaymentMethodRef {
  customerId: string;
  paymentMethodId: string;
}

/** Saves an already vaulted card for the customer with this email, creating the profile if needed (internal callers). */
export interface SaveCardCommand {
  email: string;
  card: VaultedCard;
}

export interface CustomerFilters {
  /** Lower-cased. */
  email?: string;
}
