import { CheckoutSessionSource } from '../checkout';
import { AnySubscription } from '../shared/domain-events';
import { InvoiceService } from './invoice.service';

/** What invoices hear: the checkout session of a sent invoice was paid. */
export const invoicesSubscriptions = ({ invoices }: { invoices: InvoiceService }): AnySubscription[] => [
  {
    event: 'checkout.session-completed',
    phase: 'in-transaction',
    name: 'invoices.mark-paid',
    handle: async (tx, completed) => {
      if (completed.session.source === CheckoutSessionSource.INVOICE) await invoices.markPaid(tx, completed);
    },
  },
];
