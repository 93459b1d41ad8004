/**
 * The payment requests as both faces accept them (the charge of POST /business/payment/charge and
 * GraphQL `chargeCard`, refunds, disputes, list filters): one shape each, so REST and GraphQL answer
 * a bad request with the same field messages, and one mapping to the domain's commands.
 */
import { z } from 'zod';
import { CardSource, ChargeCommand, DisputeStatus, PaymentStatus, referenceDigitsOf } from '../domain/payments';
import { toMinor } from '../domain/shared/money';
import { cardSchema } from './card';
import {
  amountSchema,
  currencySchema,
  dateTimeSchema,
  emailSchema,
  enumFilter,
  evenWhenFieldsFail,
  isUuid,
  metadataSchema,
  required,
} from './validation';

/** Exactly one of `card`, `token` (a browser card token) or `paymentMethodId` (a customer's saved card). */
export const chargeRequestSchema = z
  .object(
    {
      amount: amountSchema,
      currency: currencySchema,
      card: cardSchema.optional(),
      token: z.string({ error: 'must be a card token id (tok_…)' }).trim().optional(),
      paymentMethodId: z.string({ error: 'must be the id of a saved card' }).optional(),
      email: emailSchema.optional(),
      metadata: metadataSchema,
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((data, issues) => {
    const given = (['card', 'token', 'paymentMethodId'] as const).filter((key) => data[key] !== undefined);
    if (given.length === 0) {
      issues.addIssue({
        code: 'custom',
        path: ['card'],
        message:
          'is required: an object with number, expiryMonth, expiryYear and cvv (or send token or paymentMethodId instead)',
      });
    } else if (given.length > 1) {
      issues.addIssue({
        code: 'custom',
        path: [given[1]],
        message: 'send exactly one of card, token or paymentMethodId',
      });
    }
    if (data.email === undefined && data.paymentMethodId === undefined) {
      issues.addIssue({ code: 'custom', path: ['email'], message: "is required: the payer's email address" });
    }
  }, evenWhenFieldsFail);

export type ChargeRequest = z.output<typeof chargeRequestSchema>;

/** The command of a checked charge request; the amount becomes minor units of its currency (an unsupported currency or too many decimals is a 400 here). */
export function chargeCommandOf(request: ChargeRequest): ChargeCommand {
  const amount = toMinor(request.amount, request.currency);
  const card: CardSource = request.card
    ? { kind: 'card', details: request.card }
    : request.token !== undefined
      ? { kind: 'token', token: request.token }
      : { kind: 'saved', paymentMethodId: request.paymentMethodId! };
  return { amount, currency: request.currency, card, email: request.email, metadata: request.metadata ?? null };
}

export const refundRequestSchema = z.object(
  {
    amount: amountSchema.optional(),
    reason: z.string().trim().max(500, 'must be at most 500 characters').nullish(),
  },
  { error: 'must be a JSON object' },
);

export const openDisputeRequestSchema = z.object(
  {
    reason: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  },
  { error: 'must be a JSON object' },
);

export const resolveDisputeRequestSchema = z.object(
  {
    won: z.boolean({ error: required('true when the merchant won, false when lost') }),
  },
  { error: 'must be a JSON object' },
);

/** The filters of the payment list (REST query string, GraphQL `PaymentFilter`). */
export const paymentFilterFields = {
  status: enumFilter(PaymentStatus).optional(),
  reference: z
    .string()
    .trim()
    .max(40)
    .refine(
      (value) => referenceDigitsOf(value) !== null,
      'must be a payment reference: 12 hex digits such as 3F9AC21B-7E04',
    )
    .optional(),
  email: emailSchema.optional(),
  customerId: z.string().refine(isUuid, 'must be a customer id').optional(),
  from: dateTimeSchema.optional(),
  to: dateTimeSchema.optional(),
};

/** The filter of the dispute list. */
export const disputeFilterFields = {
  status: enumFilter(DisputeStatus).optional(),
};
