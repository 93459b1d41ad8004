import { z } from 'zod';
import { RecurringGift, RecurringGiftFilters, RecurringGiftStatus } from '../../domain/recurring-gifts';
import { toMajor } from '../../domain/shared/money';
import { recurringGiftFiltersSchema } from '../../wire/checkout';
import { pageParams } from '../../wire/validation';
import { currencyCodeSchema, decimalStringSchema, offsetListSchema, timestampSchema } from '../shared/schemas';

// ---------------------------------------------------------------- requests

export const listGiftsQuerySchema = z.object({ ...pageParams, ...recurringGiftFiltersSchema.shape });

export const giftFiltersOf = (query: z.output<typeof recurringGiftFiltersSchema>): RecurringGiftFilters => ({
  status: query.status,
  paymentLinkId: query.paymentLinkId,
});

// ---------------------------------------------------------------- responses

export const recurringGiftSchema = z
  .object({
    id: z.string(),
    object: z.literal('recurring_gift'),
    status: z.enum(RecurringGiftStatus).describe('ACTIVE, PAUSED (after too many failed charges) or CANCELLED'),
    paymentLinkId: z.string(),
    checkoutSessionId: z.string().describe('The session whose payment started the gift (its first gift)'),
    customerId: z.string(),
    paymentMethodId: z.string().describe('The saved card charged every interval'),
    email: z.string(),
    amount: decimalStringSchema,
    amountMinor: z.string().describe('The amount in minor units of the currency, as a string of digits'),
    currency: currencyCodeSchema,
    interval: z.enum(['weekly', 'monthly']),
    nextChargeAt: timestampSchema.nullable().describe('When the next charge is due; null unless ACTIVE'),
    chargeCount: z
      .number()
      .int()
      .describe('Successful recurring charges (the first gift, paid on the page, not counted)'),
    failureCount: z.number().int().describe('Consecutive failed charges'),
    lastChargeAt: timestampSchema.nullable(),
    lastPaymentId: z.string().nullable(),
    lastError: z.string().nullable(),
    pausedAt: timestampSchema.nullable(),
    cancelledAt: timestampSchema.nullable(),
    livemode: z.boolean(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'RecurringGift' });

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const recurringGiftJson = (gift: RecurringGift): z.input<typeof recurringGiftSchema> => ({
  id: gift.id,
  object: 'recurring_gift',
  status: gift.status,
  paymentLinkId: gift.paymentLinkId,
  checkoutSessionId: gift.checkoutSessionId,
  customerId: gift.customerId,
  paymentMethodId: gift.paymentMethodId,
  email: gift.email,
  amount: toMajor(gift.amount, gift.currency),
  amountMinor: gift.amount.toString(),
  currency: gift.currency.toLowerCase(),
  interval: gift.interval,
  nextChargeAt: iso(gift.nextChargeAt),
  chargeCount: gift.chargeCount,
  failureCount: gift.failureCount,
  lastChargeAt: iso(gift.lastChargeAt),
  lastPaymentId: gift.lastPaymentId,
  lastError: gift.lastError,
  pausedAt: iso(gift.pausedAt),
  cancelledAt: iso(gift.cancelledAt),
  livemode: gift.livemode,
  createdAt: gift.createdAt.toISOString(),
  updatedAt: gift.updatedAt.toISOString(),
});

export const recurringGiftListSchema = offsetListSchema(recurringGiftSchema);
