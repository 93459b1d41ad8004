/**
 * The payouts requests as both faces accept them (REST `/business/payouts/...` and the GraphQL
 * payout mutations): one shape each, the same field messages, one mapping to the domain's commands.
 * Shape only (type, presence, format); the domain normalises account details and decides the rest.
 */
import { z } from 'zod';
import {
  AdvancePayoutCommand,
  CreateBatchCommand,
  CreatePayoutCommand,
  CreateQuoteCommand,
  CreateRecipientCommand,
  MAX_BATCH_ITEMS,
  PayoutRailKind,
  PayoutStatus,
} from '../domain/payouts';
import { validationError } from '../domain/shared/errors';
import { normalizeCurrency, toMinor } from '../domain/shared/money';
import { currencySchema, decimalAmount, metadataSchema, required } from './validation';

const text = (what: string, max = 200) =>
  z
    .string({ error: required(what) })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);

const RAILS = Object.values(PayoutRailKind).join(', ');

const bankDetails = z.object(
  {
    rail: z.literal(PayoutRailKind.LOCAL_BANK),
    country: text('a two-letter country code such as NG', 2),
    currency: currencySchema,
    bankCode: text('the bank code', 32),
    bankName: text('the bank name', 120),
    accountNumber: text('the account number', 40),
    accountName: text("the account holder's name", 200),
  },
  { error: 'must be a JSON object' },
);

const mobileMoneyDetails = z.object(
  {
    rail: z.literal(PayoutRailKind.MOBILE_MONEY),
    country: text('a two-letter country code such as GH', 2),
    currency: currencySchema,
    networkId: text('the mobile network id, such as mtn-gh', 64),
    phone: text('a phone number in international format', 20),
    accountName: text("the wallet holder's name", 200),
  },
  { error: 'must be a JSON object' },
);

const cryptoDetails = z.object(
  {
    rail: z.literal(PayoutRailKind.CRYPTO),
    chain: text('the chain, such as ethereum', 32),
    address: text('the wallet address', 128),
    currency: currencySchema,
  },
  { error: 'must be a JSON object' },
);

/** `details`: the account fields of its `rail` (design section 8). */
export const recipientDetailsSchema = z.discriminatedUnion('rail', [bankDetails, mobileMoneyDetails, cryptoDetails], {
  error: (issue) => {
    if (issue.code !== 'invalid_union') return 'must be a JSON object';
    return (issue.input as { rail?: unknown } | undefined)?.rail === undefined
      ? `is required: rail, one of ${RAILS}`
      : `rail must be one of ${RAILS}`;
  },
});

export const createRecipientBodySchema = z.object(
  {
    label: text('a label for the recipient'),
    details: recipientDetailsSchema,
  },
  { error: 'must be a JSON object' },
);

export const toCreateRecipientCommand = (body: z.output<typeof createRecipientBodySchema>): CreateRecipientCommand => ({
  label: body.label,
  details: body.details,
});

const railSchema = z.enum(PayoutRailKind, { error: required(`one of ${RAILS}`) });

export const createQuoteBodySchema = z.object(
  {
    amount: decimalAmount('a decimal amount of the wallet currency, such as "100.50"'),
    currency: currencySchema.describe("The source wallet's currency"),
    destinationCurrency: currencySchema,
    country: z
      .string({ error: 'must be a two-letter country code' })
      .trim()
      .max(2, 'must be a two-letter country code')
      .optional(),
    rail: railSchema,
  },
  { error: 'must be a JSON object' },
);

export const toCreateQuoteCommand = (body: z.output<typeof createQuoteBodySchema>): CreateQuoteCommand => {
  const currency = normalizeCurrency(body.currency);
  return {
    amount: toMinor(body.amount, currency),
    currency,
    destinationCurrency: body.destinationCurrency,
    country: body.country ? body.country.toUpperCase() : null,
    rail: body.rail,
  };
};

const idSchema = (what: string) =>
  z
    .string({ error: required(what) })
    .trim()
    .min(1, 'must not be empty')
    .max(64, 'is not a valid id');
const referenceSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .max(200, 'must be at most 200 characters')
  .nullish();

export const createPayoutBodySchema = z.object(
  {
    recipientId: idSchema('the id of a recipient'),
    amount: decimalAmount('a decimal amount of the wallet currency, such as "100.50"'),
    currency: currencySchema.describe('The currency of the wallet debited'),
    quoteId: idSchema('a quote id').nullish(),
    reference: referenceSchema,
    metadata: metadataSchema,
    pin: z.string({ error: 'must be a string of 6 digits' }).nullish(),
  },
  { error: 'must be a JSON object' },
);

export const toCreatePayoutCommand = (body: z.output<typeof createPayoutBodySchema>): CreatePayoutCommand => {
  const currency = normalizeCurrency(body.currency);
  return {
    recipientId: body.recipientId,
    amount: toMinor(body.amount, currency),
    currency,
    quoteId: body.quoteId ?? null,
    reference: body.reference || null,
    metadata: body.metadata ?? null,
    pin: body.pin ?? null,
  };
};

const batchItemSchema = z.object(
  {
    recipientId: idSchema('the id of a recipient'),
    amount: decimalAmount('a decimal amount such as "100.50"'),
    currency: currencySchema,
    reference: referenceSchema,
  },
  { error: 'must be a JSON object' },
);

export const createBatchBodySchema = z.object(
  {
    name: z.string({ error: 'must be a string' }).trim().max(200, 'must be at most 200 characters').nullish(),
    items: z
      .array(batchItemSchema, { error: required(`an array of 1 to ${MAX_BATCH_ITEMS} payouts`) })
      .min(1, `must hold 1 to ${MAX_BATCH_ITEMS} payouts`)
      .max(MAX_BATCH_ITEMS, `must hold 1 to ${MAX_BATCH_ITEMS} payouts`),
  },
  { error: 'must be a JSON object' },
);

/** Amounts are converted per item, so every bad amount is reported under its own `items.N.amount`. */
export const toCreateBatchCommand = (body: z.output<typeof createBatchBodySchema>): CreateBatchCommand => {
  const errors: Record<string, string[]> = {};
  const items = body.items.map((item, index) => {
    try {
      const currency = normalizeCurrency(item.currency, `items.${index}.currency`);
      return {
        recipientId: item.recipientId,
        amount: toMinor(item.amount, currency, `items.${index}.amount`),
        currency,
        reference: item.reference || null,
      };
    } catch (error) {
      Object.assign(errors, (error as { fieldErrors?: Record<string, string[]> }).fieldErrors ?? {});
      return null;
    }
  });
  if (Object.keys(errors).length > 0) {
    throw validationError(errors, 'Some batch items are invalid; no payout was created');
  }
  return { name: body.name || null, items: items.map((item) => item!) };
};

export const rejectPayoutBodySchema = z.object(
  {
    reason: text('the reason the payout is rejected', 500),
  },
  { error: 'must be a JSON object' },
);

const ADVANCE_STATUSES = [PayoutStatus.SUBMITTED, PayoutStatus.SETTLED, PayoutStatus.FAILED] as const;

export const advancePayoutBodySchema = z.object(
  {
    status: z.enum(ADVANCE_STATUSES, { error: required(ADVANCE_STATUSES.join(', ')) }),
    reason: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1)
      .max(200)
      .nullish()
      .describe('FAILED only: the failure reason (default `sandbox_failed`)'),
  },
  { error: 'must be a JSON object' },
);

export const toAdvancePayoutCommand = (
  payoutId: string,
  body: z.output<typeof advancePayoutBodySchema>,
): AdvancePayoutCommand => ({ payoutId, status: body.status, reason: body.reason ?? null });
