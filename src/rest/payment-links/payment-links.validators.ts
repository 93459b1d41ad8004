import { z } from 'zod';
import { Core } from '../../domain/core';
import { PaymentLink, PaymentLinkFilters } from '../../domain/payment-links';
import { toMajor } from '../../domain/shared/money';
import { createPaymentLinkCommand, createPaymentLinkSchema, paymentLinkFiltersSchema } from '../../wire/checkout';
import { pageParams } from '../../wire/validation';
import { metadataJsonSchema } from '../checkout/checkout.validators';
import { currencyCodeSchema, decimalStringSchema, offsetListSchema, timestampSchema } from '../shared/schemas';

// ---------------------------------------------------------------- requests

export const createLinkBodySchema = createPaymentLinkSchema;
export const createLinkCommand = createPaymentLinkCommand;

export const listLinksQuerySchema = z.object({ ...pageParams, ...paymentLinkFiltersSchema.shape });

export const linkFiltersOf = (query: z.output<typeof listLinksQuerySchema>): PaymentLinkFilters => ({
  active: query.active,
});

// ---------------------------------------------------------------- responses

export const paymentLinkSchema = z
  .object({
    id: z.string(),
    object: z.literal('payment_link'),
    url: z.string().describe('The public URL to share (/pay/…); each visit opens a new checkout session'),
    name: z.string(),
    description: z.string().nullable(),
    amount: decimalStringSchema,
    amountMinor: z.string().describe('The amount in minor units of the currency, as a string of digits'),
    currency: currencyCodeSchema,
    active: z.boolean().describe('False once deactivated: the URL then shows a "no longer active" page'),
    allowRecurring: z.boolean().describe('Payers may turn their payment into a recurring gift'),
    recurringInterval: z
      .enum(['weekly', 'monthly'])
      .nullable()
      .describe('The interval of recurring gifts; null unless allowRecurring'),
    successUrl: z.string().nullable(),
    metadata: metadataJsonSchema,
    deactivatedAt: timestampSchema.nullable(),
    livemode: z.boolean(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'PaymentLink' });

export const paymentLinkJson = (core: Core, link: PaymentLink): z.input<typeof paymentLinkSchema> => ({
  id: link.id,
  object: 'payment_link',
  url: core.paymentLinks.urlOf(link),
  name: link.name,
  description: link.description,
  amount: toMajor(link.amount, link.currency),
  amountMinor: link.amount.toString(),
  currency: link.currency.toLowerCase(),
  active: link.active,
  allowRecurring: link.allowRecurring,
  recurringInterval: link.recurringInterval,
  successUrl: link.successUrl,
  metadata: link.metadata,
  deactivatedAt: link.deactivatedAt ? link.deactivatedAt.toISOString() : null,
  livemode: link.livemode,
  createdAt: link.createdAt.toISOString(),
  updatedAt: link.updatedAt.toISOString(),
});

export const paymentLinkListSchema = offsetListSchema(paymentLinkSchema);
