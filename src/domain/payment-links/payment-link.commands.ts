import { RecurringInterval } from '../checkout';

/** POST /business/payment-links: a fixed amount (minor units of `currency`) behind a reusable public URL. */
export interface CreatePaymentLinkCommand {
  name: string;
  description: string | null;
  amount: bigint;
  /** Upper-case, supported. */
  currency: string;
  /** Payers may turn their payment into a recurring gift (at `recurringInterval`, monthly when null). */
  allowRecurring: boolean;
  /** Only with allowRecurring (the domain refuses it otherwise). */
  recurringInterval: RecurringInterval | null;
  successUrl: string | null;
  metadata: Record<string, unknown> | null;
}

export interface PaymentLinkFilters {
  active?: boolean;
}
