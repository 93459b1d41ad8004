import { z } from 'zod';
import {
  BatchStatus,
  BatchView,
  PayoutFilters,
  PayoutObject,
  PayoutQuote,
  PayoutRailKind,
  PayoutStatus,
  Recipient,
  RecipientFilters,
} from '../../domain/payouts';
import { PageQuery } from '../../domain/shared/pagination';
import { toMajor } from '../../domain/shared/money';
import { enumFilter, skipTakeParams } from '../../wire/validation';
import { currencyCodeSchema, decimalStringSchema, timestampSchema } from '../shared/schemas';

// ---------------------------------------------------------------- requests

export const skipTakeQuerySchema = z.object(skipTakeParams);

export const recipientsQuerySchema = z.object({
  ...skipTakeParams,
  rail: enumFilter(PayoutRailKind).optional(),
  includeArchived: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  search: z.string().optional(),
});

export const payoutsQuerySchema = z.object({
  ...skipTakeParams,
  status: enumFilter(PayoutStatus).optional(),
  recipientId: z.string().optional(),
});

/** The page of a `skip`/`take` list (defaults 0 and 20; `take` already capped at 100). */
export const skipTakeOf = (query: { skip?: number; take?: number }): Extract<PageQuery, { kind: 'skip' }> => ({
  kind: 'skip',
  skip: query.skip ?? 0,
  take: query.take ?? 20,
});

export const toRecipientFilters = (query: z.output<typeof recipientsQuerySchema>): RecipientFilters => ({
  rail: query.rail,
  includeArchived: query.includeArchived === 'true',
  search: query.search,
});

export const toPayoutFilters = (query: z.output<typeof payoutsQuerySchema>): PayoutFilters => ({
  status: query.status,
  recipientId: query.recipientId,
});

// ---------------------------------------------------------------- responses

/** The payouts family's list: `{ items, total, skip, take }`, all four always present (design section 8). */
export const skipTakeListSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item).describe('Newest first'),
    total: z.number().int().describe('Items matching the filters, over all pages'),
    skip: z.number().int(),
    take: z.number().int(),
  });

export const recipientSchema = z
  .object({
    id: z.string(),
    businessId: z.string(),
    label: z.string(),
    rail: z.enum(PayoutRailKind),
    detailsMasked: z
      .record(z.string(), z.string())
      .describe('The account details with account numbers, phones and addresses masked to their last 4 characters'),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
    screenedAt: timestampSchema
      .nullable()
      .describe('When a dashboard create screened the recipient clean; null for API-key creates'),
    archivedAt: timestampSchema.nullable(),
  })
  .meta({ id: 'PayoutRecipient' });

export const recipientJson = (recipient: Recipient): z.input<typeof recipientSchema> => ({
  id: recipient.id,
  businessId: recipient.businessId,
  label: recipient.label,
  rail: recipient.rail,
  detailsMasked:
    'currency' in recipient.detailsMasked
      ? { ...recipient.detailsMasked, currency: recipient.detailsMasked.currency.toLowerCase() }
      : recipient.detailsMasked,
  createdAt: recipient.createdAt.toISOString(),
  updatedAt: recipient.updatedAt.toISOString(),
  screenedAt: recipient.screenedAt?.toISOString() ?? null,
  archivedAt: recipient.archivedAt?.toISOString() ?? null,
});

export const quoteSchema = z
  .object({
    id: z.string(),
    amount: decimalStringSchema.describe('Debited from the wallet, before the fee'),
    currency: currencyCodeSchema.describe("The source wallet's currency (lower case)"),
    dstAmount: decimalStringSchema.describe('What the recipient receives (rounded down to the destination currency)'),
    rate: z.string().describe('Destination units per source unit, spread included, 8 decimals'),
    serviceFee: decimalStringSchema.describe('In the source currency (rounded up to its minor unit)'),
    serviceFeeCurrency: currencyCodeSchema.describe(
      "The currency of serviceFee: the source wallet's, never the destination's (lower case)",
    ),
    destinationCurrency: currencyCodeSchema,
    country: z.string().describe("The destination's country; empty for crypto"),
    rail: z.enum(PayoutRailKind),
    expiresAt: timestampSchema,
  })
  .meta({
    id: 'Quote',
    // docs/payouts.md, Quotes, FX and fees: the worked example.
    examples: [
      {
        id: '2c4e6a8b-1d3f-4b5a-9c7e-8f0a2b4c6d8e',
        amount: '100.00',
        currency: 'usd',
        dstAmount: '154225.00',
        rate: '1542.25000000',
        serviceFee: '1.00',
        serviceFeeCurrency: 'usd',
        destinationCurrency: 'ngn',
        country: 'NG',
        rail: 'LOCAL_BANK',
        expiresAt: '2026-04-15T10:05:00.000Z',
      },
    ],
  });

export const quoteJson = (quote: PayoutQuote): z.input<typeof quoteSchema> => ({
  id: quote.id,
  amount: toMajor(quote.amount, quote.currency),
  currency: quote.currency.toLowerCase(),
  dstAmount: toMajor(quote.dstAmount, quote.destinationCurrency),
  rate: quote.rate,
  serviceFee: toMajor(quote.serviceFee, quote.currency),
  serviceFeeCurrency: quote.currency.toLowerCase(),
  destinationCurrency: quote.destinationCurrency.toLowerCase(),
  country: quote.country,
  rail: quote.rail,
  expiresAt: quote.expiresAt.toISOString(),
});

/** The documented Business payout (interface document), the same object the payout.* events carry. */
export const payoutSchema = z
  .object({
    id: z.string(),
    object: z.literal('payout'),
    status: z.enum(PayoutStatus),
    rail: z.enum(PayoutRailKind),
    amount: decimalStringSchema,
    currency: currencyCodeSchema,
    recipientId: z.string(),
    destinationMasked: z.object({
      country: z.string(),
      accountNumber: z.string().describe('Masked to the last 4 characters'),
      bankName: z.string().describe('The bank; the network for mobile money, the chain for crypto'),
    }),
    providerRef: z.string().nullable(),
    settledAt: timestampSchema.nullable(),
    quote: z.object({
      dstAmount: decimalStringSchema,
      rate: z.string(),
      serviceFee: decimalStringSchema.describe("In the source currency (the payout's currency)"),
      serviceFeeCurrency: currencyCodeSchema.describe(
        "The currency of serviceFee: the source wallet's, never the destination's (lower case)",
      ),
      currency: currencyCodeSchema.describe('The destination currency (of dstAmount), lower case'),
      country: z.string(),
    }),
    failureReason: z.string().nullable(),
    reference: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    batchId: z.string().nullable(),
    livemode: z.boolean(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({
    id: 'Payout',
    // docs/payouts.md, Payouts: 100.00 USD to a Nigerian bank account, priced at 1542.25.
    examples: [
      {
        id: '9b2f6c1e-4a7d-4f0e-8c3b-2d5e7f9a1b3c',
        object: 'payout',
        status: 'CREATED',
        rail: 'LOCAL_BANK',
        amount: '100.00',
        currency: 'usd',
        recipientId: '5e8a1c3d-7b2f-4e9a-a6c4-1d3f5b7e9a2c',
        destinationMasked: { country: 'NG', accountNumber: '****6789', bankName: 'GTBank' },
        providerRef: null,
        settledAt: null,
        quote: {
          dstAmount: '154225.00',
          rate: '1542.25000000',
          serviceFee: '1.00',
          serviceFeeCurrency: 'usd',
          currency: 'ngn',
          country: 'NG',
        },
        failureReason: null,
        reference: 'order_1042',
        metadata: null,
        batchId: null,
        livemode: false,
        createdAt: '2026-04-15T10:00:00.000Z',
        updatedAt: '2026-04-15T10:00:00.000Z',
      },
    ],
  });

/** The read shape is the domain's event object, field for field (so REST and webhooks cannot drift). */
export const payoutJson = (object: PayoutObject): z.input<typeof payoutSchema> => object;

export const batchSchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    status: z.enum(BatchStatus),
    itemCount: z.number().int(),
    totalAmount: decimalStringSchema.describe('Sum of the items, fees not included'),
    currency: currencyCodeSchema,
    counts: z.object({
      created: z.number().int(),
      submitted: z.number().int(),
      settled: z.number().int(),
      failed: z.number().int(),
      cancelled: z.number().int(),
      pendingReview: z.number().int(),
    }),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Batch' });

export const batchJson = ({ batch, counts, status }: BatchView): z.input<typeof batchSchema> => ({
  id: batch.id,
  name: batch.name,
  status,
  itemCount: batch.itemCount,
  totalAmount: toMajor(batch.totalAmount, batch.currency),
  currency: batch.currency.toLowerCase(),
  counts,
  createdAt: batch.createdAt.toISOString(),
  updatedAt: batch.updatedAt.toISOString(),
});
