/**
 * The collection requests as both faces accept them (REST `/business/collections...` and the
 * GraphQL collection mutations): one shape each, the same field messages, one mapping to the
 * domain's commands. Shape only (type, presence, format); the domain decides the channel, its
 * limits, what a rail needs from the customer and whether a channel id or network id is in the
 * wrong place.
 */
import { z } from 'zod';
import {
  CollectionRailKind,
  CollectionStatus,
  CreateCollectionCommand,
  PayCollectionCommand,
} from '../domain/collections';
import { MAX_AMOUNT_MINOR } from '../domain/shared/money';
import { emailSchema, enumFilter, metadataSchema, required, skipTakeParams } from './validation';

const RAILS = Object.values(CollectionRailKind).join(', ');
const MINOR_UNITS = 'must be a positive integer in minor units of the currency (5000 is 50.00 NGN)';

/** An integer amount in minor units (design 3: the collection `amount` is an integer). Never a string, never a fraction. */
export const minorAmountSchema = (hint = 'an integer amount in minor units of the currency, such as 5000 for 50.00') =>
  z
    .number({ error: required(hint) })
    .refine((value) => Number.isSafeInteger(value), MINOR_UNITS)
    .refine((value) => value > 0, MINOR_UNITS)
    .refine((value) => BigInt(Math.trunc(value)) <= MAX_AMOUNT_MINOR, 'is too large');

const optionalText = (max: number, hint: string) =>
  z
    .string({ error: `must be a string: ${hint}` })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .nullish();

const customerSchema = z.object(
  {
    email: emailSchema.nullish(),
    name: optionalText(200, "the payer's name"),
    phone: optionalText(20, 'a phone number in international format such as +233241234567'),
    networkId: optionalText(
      64,
      'an operator network id such as mtn-gh (GET /business/collections/channels lists them)',
    ),
  },
  { error: 'must be a JSON object' },
);

export const createCollectionBodySchema = z.object(
  {
    amount: minorAmountSchema(),
    currency: z
      .string({ error: required('a lower-case currency code such as ngn') })
      .trim()
      .min(3, 'must be a currency code such as ngn')
      .max(8, 'must be a currency code such as ngn'),
    country: z
      .string({ error: required('a two-letter country code such as NG') })
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code such as NG'),
    rail: z.enum(CollectionRailKind, { error: required(`one of ${RAILS}`) }),
    channelId: optionalText(64, 'a channel id from GET /business/collections/channels'),
    customer: customerSchema.nullish(),
    metadata: metadataSchema,
    expiresInSeconds: z
      .number({ error: 'must be an integer number of seconds' })
      .int('must be an integer number of seconds')
      .nullish()
      .describe('How long the instructions stay payable: 300 to 604800 seconds (default 3600)'),
    businessPaymentId: optionalText(100, 'your own reference of the payment, unique per business').describe(
      'Your reference of the payment; Tessera makes one (bp_…) when omitted',
    ),
  },
  { error: 'must be a JSON object' },
);

export const toCreateCollectionCommand = (
  body: z.output<typeof createCollectionBodySchema>,
): CreateCollectionCommand => ({
  amount: BigInt(body.amount),
  currency: body.currency,
  country: body.country,
  rail: body.rail,
  channelId: body.channelId ?? null,
  customer: {
    email: body.customer?.email ?? null,
    name: body.customer?.name ?? null,
    phone: body.customer?.phone ?? null,
    networkId: body.customer?.networkId ?? null,
  },
  metadata: body.metadata ?? null,
  expiresInSeconds: body.expiresInSeconds ?? null,
  businessPaymentId: body.businessPaymentId ?? null,
});

/** The sandbox pay helper: what the payer sends, in minor units of the collection's own currency. */
export const payCollectionBodySchema = z.object(
  {
    amount: minorAmountSchema('an integer amount in minor units of the collection currency'),
  },
  { error: 'must be a JSON object' },
);

export const toPayCollectionCommand = (
  collectionId: string,
  body: z.output<typeof payCollectionBodySchema>,
): PayCollectionCommand => ({ collectionId, amount: BigInt(body.amount) });

export const channelsQuerySchema = z.object({
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code such as NG')
    .optional(),
});

export const collectionsQuerySchema = z.object({
  ...skipTakeParams,
  status: enumFilter(CollectionStatus).optional(),
});
