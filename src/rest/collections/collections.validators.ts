import { z } from 'zod';
import {
  CollectionFilters,
  CollectionObject,
  CollectionRailKind,
  CollectionSource,
  CollectionStatus,
} from '../../domain/collections';
import { CollectionChannel, networkIdsOf } from '../../providers/collection-rail/port';
import { collectionsQuerySchema } from '../../wire/collections';
import { currencyCodeSchema, timestampSchema } from '../shared/schemas';

export const toCollectionFilters = (query: z.output<typeof collectionsQuerySchema>): CollectionFilters => ({
  status: query.status,
});

// ---------------------------------------------------------------- responses

const minorSchema = z.number().int().describe('Integer, minor units');

export const channelSchema = z
  .object({
    id: z.string().describe("The provider's channel id (send it as channelId to pick this channel)"),
    country: z.string().describe('ISO 3166-1 alpha-2'),
    currency: currencyCodeSchema,
    rail: z.enum(CollectionRailKind),
    provider: z.string(),
    networkIds: z
      .array(z.string())
      .optional()
      .describe('Mobile money only: the operator network ids customer.networkId takes'),
    minAmount: minorSchema.describe('Smallest collection, minor units of currency'),
    maxAmount: minorSchema.describe('Largest collection, minor units of currency'),
  })
  .meta({ id: 'CollectionChannel' });

export const channelListSchema = z.object({ items: z.array(channelSchema) });

export const channelJson = (channel: CollectionChannel): z.input<typeof channelSchema> => ({
  id: channel.id,
  country: channel.country,
  currency: channel.currency.toLowerCase(),
  rail: channel.rail as CollectionRailKind,
  provider: channel.provider,
  ...(channel.networks ? { networkIds: networkIdsOf(channel)! } : {}),
  minAmount: Number(channel.minAmount),
  maxAmount: Number(channel.maxAmount),
});

const instructionsSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('bank_transfer'),
    bankName: z.string(),
    accountNumber: z.string(),
    accountName: z.string(),
    reference: z
      .string()
      .nullable()
      .describe('Null when the account itself identifies the payment (a virtual account per collection)'),
  }),
  z.object({ kind: z.literal('momo_prompt'), phone: z.string(), prompt: z.string() }),
  z.object({
    kind: z.literal('hosted_page'),
    url: z.string().describe("Tessera's page with the payment instructions"),
    provider: z.string(),
  }),
]);

/** The documented Collection (interface document), the same object the collection.* events carry. */
export const collectionSchema = z
  .object({
    id: z.string(),
    object: z.literal('collection'),
    status: z.enum(CollectionStatus),
    amount: minorSchema.describe('Integer in minor units of currency (5000 ngn is 50.00 NGN)'),
    currency: currencyCodeSchema,
    country: z.string().describe('ISO 3166-1 alpha-2'),
    expiresAt: timestampSchema,
    channel: z.object({
      rail: z.enum(CollectionRailKind),
      provider: z.string(),
      channelId: z.string().nullable().describe("The provider's own channel id; null when the provider gave none"),
      networkId: z
        .string()
        .nullable()
        .describe('The operator network routed to: customer.networkId as sent; never a channel id'),
    }),
    instructions: instructionsSchema,
    metadata: z.record(z.string(), z.unknown()).nullable(),
    businessPaymentId: z.string(),
    source: z.enum(CollectionSource),
    createdAt: timestampSchema,
    livemode: z.boolean(),
    updatedAt: timestampSchema,
    amountReceived: minorSchema.nullable().describe('What the payer sent, as the rail reported it'),
    failureReason: z.string().nullable().describe("failed only: amount_mismatch, or the rail's rejection reason"),
    settlement: z
      .object({
        currency: z.literal('usdc'),
        rate: z.string().describe('USDC per unit of currency, 8 decimals'),
        grossAmount: minorSchema.describe('amount converted at rate, rounded down (USDC minor units, 6 decimals)'),
        fee: minorSchema.describe('The collection fee, rounded up (USDC minor units)'),
        netAmount: minorSchema.describe('grossAmount − fee: credited to the USDC wallet (USDC minor units)'),
      })
      .nullable()
      .describe('completed only'),
  })
  .meta({ id: 'Collection' });

/** The read shape is the domain's event object, field for field (so REST and webhooks cannot drift). */
export const collectionJson = (object: CollectionObject): z.input<typeof collectionSchema> => object;
