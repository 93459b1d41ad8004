import { z } from 'zod';
import {
  CreateV1PaymentCommand,
  v1PaymentData,
  V1PaymentFilters,
  V1PaymentStatus,
  V1PaymentView,
} from '../../domain/checkout';
import { KeysetQuery, ListPage, MAX_PAGE_SIZE } from '../../domain/shared/pagination';
import { absoluteUrlSchema, integerParam, isUuid, metadataSchema } from '../../wire/validation';
import { currencyCodeSchema, settlementCurrencySchema, v1ListSchema, v1TimestampSchema } from '../schemas';

/** The default page size of `GET /v1/payments`. */
export const DEFAULT_PAYMENT_PAGE = 10;

const amountMessage = 'must be a positive integer in the smallest currency unit, such as 1050 for 10.50';

export const createPaymentBodySchema = z
  .object({
    amount: z
      .number({ error: (issue) => (issue.input === undefined ? `is required: ${amountMessage}` : amountMessage) })
      .int(amountMessage)
      .positive(amountMessage),
    currency: currencyCodeSchema(),
    settle_in: settlementCurrencySchema()
      .nullish()
      .describe(
        "The currency the payment settles in (a 3-letter ISO code, or USDC); default: the payment's currency. Another currency is converted at the FX rate of settlement time",
      ),
    description: z.string({ error: 'must be a string' }).max(1000, 'must be at most 1000 characters').nullish(),
    redirect_url: absoluteUrlSchema
      .nullish()
      .describe("Where the payer is sent once paid (with `session_id`); default: Tessera's receipt page"),
    webhook_url: absoluteUrlSchema
      .nullish()
      .describe("Also receives this payment's events (live keys: https and a public address)"),
    metadata: metadataSchema.describe('Your key-value data, up to 8 KB of JSON, returned as sent'),
  })
  .strict();

export const listPaymentsQuerySchema = z.object({
  limit: integerParam(MAX_PAGE_SIZE).describe(
    `How many payments (1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAYMENT_PAGE})`,
  ),
  after: z
    .string()
    .refine(isUuid, 'must be the id of a payment (the last id of the previous page)')
    .optional()
    .describe('The id of the last payment of the previous page'),
  status: z.enum(V1PaymentStatus, { error: `must be one of ${Object.values(V1PaymentStatus).join(', ')}` }).optional(),
});

export const paymentSchema = z
  .object({
    id: z.string(),
    status: z
      .enum(V1PaymentStatus)
      .describe('pending until paid; completed, failed (locked after too many failed attempts) or expired'),
    amount: z.number().int().describe('In the smallest currency unit'),
    currency: z.string().describe('3-letter ISO code, upper case'),
    payment_url: z.string().describe('The hosted payment page'),
    expires_at: v1TimestampSchema.describe('24 hours after creation'),
    settle_in: z.string(),
    description: z.string().nullable(),
    redirect_url: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    created_at: v1TimestampSchema,
  })
  .meta({ id: 'V1Payment' });

export const paymentListSchema = v1ListSchema(paymentSchema);

export const toCreatePaymentCommand = (body: z.output<typeof createPaymentBodySchema>): CreateV1PaymentCommand => ({
  amount: BigInt(body.amount),
  currency: body.currency,
  settleIn: body.settle_in ?? null,
  description: body.description ?? null,
  redirectUrl: body.redirect_url ?? null,
  webhookUrl: body.webhook_url ?? null,
  metadata: body.metadata ?? null,
});

export const toPaymentFilters = (query: z.output<typeof listPaymentsQuerySchema>): V1PaymentFilters => ({
  status: query.status,
});
/** `/v1` pages by `limit` after a payment's id: a keyset page whose cursor is the id. */
export const toPageQuery = (query: z.output<typeof listPaymentsQuerySchema>): KeysetQuery => ({
  kind: 'keyset',
  first: query.limit ?? DEFAULT_PAYMENT_PAGE,
  after: query.after ?? null,
});

/** The read shape is the events' payment object (one mapping), checked here against the declared schema. */
export const paymentJson = (payment: V1PaymentView): z.input<typeof paymentSchema> => v1PaymentData(payment);

export const paymentListJson = (page: ListPage<V1PaymentView>): z.input<typeof paymentListSchema> => ({
  object: 'list',
  data: page.items.map(paymentJson),
  has_more: page.hasNextPage,
});
