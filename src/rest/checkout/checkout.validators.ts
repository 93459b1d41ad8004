import { z } from 'zod';
import { ErrorCode } from '../../domain/shared/errors';
import {
  CheckoutPaymentMethod,
  CheckoutSession,
  CheckoutSessionFilters,
  CheckoutSessionSource,
  CheckoutSessionStatus,
} from '../../domain/checkout';
import { Core } from '../../domain/core';
import { ListPage, PageQuery } from '../../domain/shared/pagination';
import { toMajor } from '../../domain/shared/money';
import {
  checkoutSessionFiltersSchema,
  createCheckoutSessionCommand,
  createCheckoutSessionSchema,
} from '../../wire/checkout';
import { pageParams } from '../../wire/validation';
import {
  currencyCodeSchema,
  decimalStringSchema,
  idParamsSchema,
  offsetListSchema,
  Responses,
  responses,
  timestampSchema,
} from '../shared/schemas';

export { idParamsSchema };

/**
 * `responses()` of src/rest/shared/schemas.ts, typed per status: the type provider then checks a
 * handler's answer against the declared success schema (responses() alone types only the errors).
 */
export const declaredResponses = <const D extends Responses>(declared: D, refusals: readonly ErrorCode[] = []) =>
  responses(declared, refusals);

/** The `page` and `limit` of a REST list (1 and 20 when absent) as the domain's offset page. */
export const offsetPageOf = (query: { page?: number; limit?: number }): PageQuery & { kind: 'offset' } => ({
  kind: 'offset',
  page: query.page ?? 1,
  limit: query.limit ?? 20,
});

/** The documented list answer `{ items, total, page, limit }` of an offset page. */
export const offsetListOf = <T, J>(
  page: ListPage<T>,
  query: PageQuery & { kind: 'offset' },
  toJson: (item: T) => J,
) => ({ items: page.items.map(toJson), total: page.total ?? 0, page: query.page, limit: query.limit });

export const metadataJsonSchema = z
  .record(z.string(), z.unknown())
  .nullable()
  .describe('The JSON object of metadata the session or link was created with, or null');

// ---------------------------------------------------------------- requests

export const createSessionBodySchema = createCheckoutSessionSchema;
export const createSessionCommand = createCheckoutSessionCommand;

export const listSessionsQuerySchema = z.object({ ...pageParams, ...checkoutSessionFiltersSchema.shape });

export const sessionFiltersOf = (query: z.output<typeof listSessionsQuerySchema>): CheckoutSessionFilters => ({
  status: query.status,
  source: query.source,
});

// ---------------------------------------------------------------- responses

export const checkoutSessionSchema = z
  .object({
    id: z.string(),
    object: z.literal('checkout_session'),
    status: z
      .enum(CheckoutSessionStatus)
      .describe('OPEN (payable), COMPLETED (paid once), EXPIRED, or LOCKED (too many failed payment attempts)'),
    amount: decimalStringSchema,
    amountMinor: z.string().describe('The amount in minor units of the currency, as a string of digits'),
    currency: currencyCodeSchema,
    customerEmail: z.string().nullable().describe('Null when the hosted page asks the payer for it'),
    description: z.string().nullable(),
    successUrl: z
      .string()
      .describe("Where the payer lands once paid (session_id is appended); Tessera's receipt page when none was given"),
    cancelUrl: z.string().nullable(),
    checkoutUrl: z.string().describe('The hosted payment page'),
    source: z
      .enum(CheckoutSessionSource)
      .describe('What opened the session: the API, a payment link, an invoice or a /v1 payment'),
    sourceId: z.string().nullable().describe('The payment link or invoice that opened the session'),
    paymentId: z.string().nullable().describe('The payment that paid the session'),
    paymentMethods: z
      .array(z.enum(CheckoutPaymentMethod))
      .describe('What the hosted page offers: card and/or the local rails bank, momo, eft'),
    collectionId: z.string().nullable().describe('The collection that paid the session (a local rail)'),
    metadata: metadataJsonSchema,
    expiresAt: timestampSchema,
    completedAt: timestampSchema.nullable(),
    livemode: z.boolean(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'CheckoutSession' });

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const checkoutSessionJson = (core: Core, session: CheckoutSession): z.input<typeof checkoutSessionSchema> => ({
  id: session.id,
  object: 'checkout_session',
  status: session.status,
  amount: toMajor(session.amount, session.currency),
  amountMinor: session.amount.toString(),
  currency: session.currency.toLowerCase(),
  customerEmail: session.customerEmail,
  description: session.description,
  successUrl: core.checkout.successUrlOf(session),
  cancelUrl: session.cancelUrl,
  checkoutUrl: core.checkout.urlOf(session),
  source: session.source,
  sourceId: session.sourceId,
  paymentId: session.paymentId,
  paymentMethods: [...session.paymentMethods],
  collectionId: session.collectionId,
  metadata: session.metadata,
  expiresAt: session.expiresAt.toISOString(),
  completedAt: iso(session.completedAt),
  livemode: session.livemode,
  createdAt: session.createdAt.toISOString(),
  updatedAt: session.updatedAt.toISOString(),
});

export const checkoutSessionListSchema = offsetListSchema(checkoutSessionSchema);
