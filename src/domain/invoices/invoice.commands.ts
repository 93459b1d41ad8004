import { InvoiceStatus } from './invoice.entity';

/** One line to bill: `quantity` times `unitAmount` (minor units of the invoice's currency). */
export interface InvoiceLineCommand {
  description: string;
  quantity: number;
  unitAmount: bigint;
}

/** What an invoice bills: itemised lines, or one amount due. */
export type InvoiceLinesCommand = { kind: 'items'; items: InvoiceLineCommand[] } | { kind: 'amount'; amount: bigint };

/** POST /business/invoices: a DRAFT invoice with the next number of the business and mode. */
export interface CreateInvoiceCommand {
  /** Lower-cased. */
  customerEmail: string;
  /** Upper-case, supported. */
  currency: string;
  lines: InvoiceLinesCommand;
  description: string | null;
  /** Calendar date (YYYY-MM-DD), today or later. */
  dueDate: string | null;
  successUrl: string | null;
  metadata: Record<string, unknown> | null;
}

export interface InvoiceFilters {
  status?: InvoiceStatus;
}
