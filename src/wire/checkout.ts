/**
 * The wire shapes of checkout sessions, payment links, invoices and recurring gifts that both faces accept (REST
 * bodies and GraphQL inputs answer the same per-field messages), and their mapping to the domain
 * commands: decimal amounts become minor units of the normalized currency here.
 */
import { z } from 'zod';
import {
  CheckoutPaymentMethod,
  CheckoutSessionSource,
  CheckoutSessionStatus,
  CreateCheckoutSessionCommand,
} from '../domain/checkout';
import { CreateInvoiceCommand, InvoiceLineCommand, InvoiceStatus } from '../domain/invoices';
import { CreatePaymentLinkCommand } from '../domain/payment-links';
import { DomainError, FieldErrors, validationError } from '../domain/shared/errors';
import { normalizeCurrency, toMinor } from '../domain/shared/money';
import { RecurringGiftStatus } from '../domain/recurring-gifts';
import {
  absoluteUrlSchema,
  amountSchema,
  currencySchema,
  emailSchema,
  enumFilter,
  isUuid,
  metadataSchema,
  required,
} from './validation';

export const descriptionSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .max(500, 'must be at most 500 characters')
  .nullish();
export const requiredUrlSchema = z.string({ error: required('an absolute http(s) URL') }).pipe(absoluteUrlSchema);
export const optionalUrlSchema = z
  .string({ error: 'must be an absolute http(s) URL' })
  .pipe(absoluteUrlSchema)
  .nullish();
export const intervalSchema = z.enum(['weekly', 'monthly'], { error: 'must be weekly or monthly' });

export const createCheckoutSessionSchema = z.object(
  {
    amount: amountSchema,
    currency: currencySchema,
    customerEmail: emailSchema.nullish(),
    successUrl: requiredUrlSchema,
    cancelUrl: optionalUrlSchema,
    description: descriptionSchema,
    metadata: metadataSchema,
    paymentMethods: z
      .array(
        z.enum(CheckoutPaymentMethod, { error: `must be one of ${Object.values(CheckoutPaymentMethod).join(', ')}` }),
        { error: 'must be an array of payment methods' },
      )
      .min(1, 'must offer at least one payment method')
      .max(4, 'must list each payment method at most once')
      .optional()
      .describe('What the hosted page offers: card (the default) and/or the local rails bank, momo, eft (collections)'),
  },
  { error: 'must be a JSON object' },
);

export const createPaymentLinkSchema = z.object(
  {
    name: z
      .string({ error: required('what the payer is paying for') })
      .trim()
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters'),
    description: descriptionSchema,
    amount: amountSchema,
    currency: currencySchema,
    allowRecurring: z.boolean({ error: 'must be true or false' }).optional(),
    recurringInterval: intervalSchema.nullish(),
    successUrl: optionalUrlSchema,
    metadata: metadataSchema,
  },
  { error: 'must be a JSON object' },
);

const invoiceItemSchema = z.object(
  {
    description: z
      .string({ error: required() })
      .trim()
      .min(1, 'must not be empty')
      .max(500, 'must be at most 500 characters'),
    quantity: z
      .number({ error: 'must be a whole number from 1 to 10000' })
      .int('must be a whole number from 1 to 10000')
      .min(1, 'must be at least 1')
      .max(10_000, 'must be at most 10000')
      .optional(),
    unitAmount: amountSchema,
  },
  { error: 'must be an object with description, quantity and unitAmount' },
);

export const createInvoiceSchema = z.object(
  {
    customerEmail: z.string({ error: required('the email address of the customer to bill') }).pipe(emailSchema),
    currency: currencySchema,
    items: z
      .array(invoiceItemSchema, { error: 'must be an array of items' })
      .min(1, 'must list at least one item')
      .max(100, 'must list at most 100 items')
      .optional(),
    amount: amountSchema.optional(),
    description: descriptionSchema,
    dueDate: z
      .string({ error: 'must be a date (YYYY-MM-DD)' })
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
      .refine(
        (value) =>
          !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
          new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
        'must be a date (YYYY-MM-DD)',
      )
      .refine((value) => value >= new Date().toISOString().slice(0, 10), 'must be today or later')
      .nullish(),
    successUrl: optionalUrlSchema,
    metadata: metadataSchema,
  },
  { error: 'must be a JSON object' },
);

export const createCheckoutSessionCommand = (
  body: z.output<typeof createCheckoutSessionSchema>,
): CreateCheckoutSessionCommand => {
  const currency = normalizeCurrency(body.currency);
  return {
    amount: toMinor(body.amount, currency),
    currency,
    customerEmail: body.customerEmail ?? null,
    successUrl: body.successUrl,
    cancelUrl: body.cancelUrl ?? null,
    description: body.description ?? null,
    metadata: body.metadata ?? null,
    paymentMethods: body.paymentMethods ?? [CheckoutPaymentMethod.CARD],
  };
};

export const createPaymentLinkCommand = (body: z.output<typeof createPaymentLinkSchema>): CreatePaymentLinkCommand => {
  const currency = normalizeCurrency(body.currency);
  return {
    name: body.name,
    description: body.description ?? null,
    amount: toMinor(body.amount, currency),
    currency,
    allowRecurring: body.allowRecurring ?? false,
    recurringInterval: body.recurringInterval ?? null,
    successUrl: body.successUrl ?? null,
    metadata: body.metadata ?? null,
  };
};

/** Each item's unit amount in minor units; every item's bad amount is named at once (`items.0.unitAmount`). */
function invoiceLines(
  items: NonNullable<z.output<typeof createInvoiceSchema>['items']>,
  currency: string,
): InvoiceLineCommand[] {
  const errors: FieldErrors = {};
  const lines = items.map((item, index) => {
    let unitAmount = 0n;
    try {
      unitAmount = toMinor(item.unitAmount, currency, `items.${index}.unitAmount`);
    } catch (error) {
      if (!(error instanceof DomainError) || !error.fieldErrors) throw error;
      Object.assign(errors, error.fieldErrors);
    }
    return { description: item.description, quantity: item.quantity ?? 1, unitAmount };
  });
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return lines;
}

export const createInvoiceCommand = (body: z.output<typeof createInvoiceSchema>): CreateInvoiceCommand => {
  const currency = normalizeCurrency(body.currency);
  if ((body.items === undefined) === (body.amount === undefined))
    throw validationError({ _: ['send either items or amount (exactly one)'] });
  return {
    customerEmail: body.customerEmail,
    currency,
    lines: body.items
      ? { kind: 'items', items: invoiceLines(body.items, currency) }
      : { kind: 'amount', amount: toMinor(body.amount!, currency) },
    description: body.description ?? null,
    dueDate: body.dueDate ?? null,
    successUrl: body.successUrl ?? null,
    metadata: body.metadata ?? null,
  };
};

// ---------------------------------------------------------------- list filters (both faces; REST adds page and limit)

export const checkoutSessionFiltersSchema = z.object({
  status: enumFilter(CheckoutSessionStatus).optional(),
  source: enumFilter(CheckoutSessionSource).optional(),
});

const booleanParam = z
  .union([z.boolean(), z.enum(['true', 'false'])], { error: 'must be true or false' })
  .transform((value) => value === true || value === 'true')
  .optional();

export const paymentLinkFiltersSchema = z.object({ active: booleanParam });

export const invoiceFiltersSchema = z.object({ status: enumFilter(InvoiceStatus).optional() });

/** The recurring gift list filters both faces accept (GraphQL's status is already an enum value). */
export const recurringGiftFiltersSchema = z.object({
  status: enumFilter(RecurringGiftStatus).optional(),
  paymentLinkId: z.string().refine(isUuid, 'must be a payment link id').optional(),
});
