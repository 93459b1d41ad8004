import { z } from 'zod';
import { Invoice, InvoiceFilters, InvoiceStatus } from '../../domain/invoices';
import { toMajor } from '../../domain/shared/money';
import { createInvoiceCommand, createInvoiceSchema, invoiceFiltersSchema } from '../../wire/checkout';
import { pageParams } from '../../wire/validation';
import { metadataJsonSchema } from '../checkout/checkout.validators';
import { currencyCodeSchema, decimalStringSchema, offsetListSchema, timestampSchema } from '../shared/schemas';

// ---------------------------------------------------------------- requests

export const createInvoiceBodySchema = createInvoiceSchema;
export { createInvoiceCommand };

export const listInvoicesQuerySchema = z.object({ ...pageParams, ...invoiceFiltersSchema.shape });

export const invoiceFiltersOf = (query: z.output<typeof listInvoicesQuerySchema>): InvoiceFilters => ({
  status: query.status,
});

// ---------------------------------------------------------------- responses

const invoiceItemSchema = z.object({
  description: z.string(),
  quantity: z.number().int(),
  unitAmount: decimalStringSchema,
  amount: decimalStringSchema.describe('quantity × unitAmount'),
});

export const invoiceSchema = z
  .object({
    id: z.string(),
    object: z.literal('invoice'),
    invoiceNumber: z.string().describe('INV-000001, sequential per business and mode'),
    status: z.enum(InvoiceStatus).describe('DRAFT, OPEN (sent, payable), PAID or VOID'),
    customerEmail: z.string(),
    currency: currencyCodeSchema,
    items: z.array(invoiceItemSchema),
    totalAmount: decimalStringSchema,
    totalAmountMinor: z.string().describe('The total in minor units of the currency, as a string of digits'),
    description: z.string().nullable(),
    dueDate: z.string().nullable().describe('Calendar date (YYYY-MM-DD)'),
    successUrl: z.string().nullable(),
    checkoutSessionId: z.string().nullable().describe('The checkout session the customer pays through (once sent)'),
    checkoutUrl: z.string().nullable().describe('Where the customer pays (once sent)'),
    paymentId: z.string().nullable(),
    metadata: metadataJsonSchema,
    finalizedAt: timestampSchema.nullable(),
    paidAt: timestampSchema.nullable(),
    voidedAt: timestampSchema.nullable(),
    livemode: z.boolean(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Invoice' });

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const invoiceJson = (invoice: Invoice): z.input<typeof invoiceSchema> => ({
  id: invoice.id,
  object: 'invoice',
  invoiceNumber: invoice.invoiceNumber,
  status: invoice.status,
  customerEmail: invoice.customerEmail,
  currency: invoice.currency.toLowerCase(),
  items: invoice.items.map((item) => ({
    description: item.description,
    quantity: item.quantity,
    unitAmount: toMajor(BigInt(item.unitAmountMinor), invoice.currency),
    amount: toMajor(BigInt(item.amountMinor), invoice.currency),
  })),
  totalAmount: toMajor(invoice.totalAmount, invoice.currency),
  totalAmountMinor: invoice.totalAmount.toString(),
  description: invoice.description,
  dueDate: invoice.dueDate,
  successUrl: invoice.successUrl,
  checkoutSessionId: invoice.checkoutSessionId,
  checkoutUrl: invoice.checkoutUrl,
  paymentId: invoice.paymentId,
  metadata: invoice.metadata,
  finalizedAt: iso(invoice.finalizedAt),
  paidAt: iso(invoice.paidAt),
  voidedAt: iso(invoice.voidedAt),
  livemode: invoice.livemode,
  createdAt: invoice.createdAt.toISOString(),
  updatedAt: invoice.updatedAt.toISOString(),
});

export const invoiceListSchema = offsetListSchema(invoiceSchema);
