import { DomainEvent, EventNameOf } from '../events/catalog';
import { toMajor } from '../shared/money';
import { Invoice } from './invoice.entity';

/** The events invoices record (docs/webhooks.md). */
export const InvoiceEvents = {
  CREATED: 'invoice.created',
  FINALIZED: 'invoice.finalized',
  PAID: 'invoice.paid',
  VOIDED: 'invoice.voided',
} as const;
export type InvoiceEventType = EventNameOf<typeof InvoiceEvents>;

export type InvoiceEvent = DomainEvent<InvoiceEventType>;

const facts = (invoice: Invoice) => ({ invoiceId: invoice.id, invoiceNumber: invoice.invoiceNumber });

export const invoiceCreated = (invoice: Invoice): InvoiceEvent => ({
  type: InvoiceEvents.CREATED,
  data: {
    ...facts(invoice),
    status: invoice.status,
    totalAmount: toMajor(invoice.totalAmount, invoice.currency),
    currency: invoice.currency.toLowerCase(),
  },
});

export const invoiceFinalized = (invoice: Invoice, sessionId: string): InvoiceEvent => ({
  type: InvoiceEvents.FINALIZED,
  data: { ...facts(invoice), status: invoice.status, sessionId, checkoutUrl: invoice.checkoutUrl },
});

export const invoicePaid = (invoice: Invoice, sessionId: string, paymentId: string): InvoiceEvent => ({
  type: InvoiceEvents.PAID,
  data: { ...facts(invoice), sessionId, paymentId },
});

export const invoiceVoided = (invoice: Invoice): InvoiceEvent => ({
  type: InvoiceEvents.VOIDED,
  data: { ...facts(invoice), status: invoice.status },
});
