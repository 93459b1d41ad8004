import { z } from 'zod';
import {
  AttachPaymentMethodCommand, CreateCustomerCommand, CustomerFilters, PaymentMethodRef, UpdateCustomerCommand,
} from '../../domain/customers/customer.commands';
import { cardSchema } from '../../wire/card';
import { PaymentStatus } from '../../domain/payments/payment.entities';
import { emailSchema, evenWhenFieldsFail, pageParams, required } from '../../wire/validation';
import { decimalStringSchema, offsetListSchema, timestampSchema } from '../shared/schemas';

// ---------------------------------------------------------------- requests

const text = (max: number) => z.string({ error: 'must be a string or null' }).trim().min(1, 'must not be empty; send null to clear it')
  .max(max, `must be at most ${max} characters`).nullable();
const phoneSchema = z.string({ error: 'must be a string or null' }).trim()
  .regex(/^\+?[0-9][0-9 ().-]{3,30}$/, 'must be a phone number such as +14155550100').nullable();

const profileFields = {
  userId: text(200).optional().describe("The merchant's own id for the customer"),
  firstName: text(100).optional(),
  lastName: text(100).optional(),
  phoneNumber: phoneSchema.optional(),
};

export const createCustomerBodySchema = z.object({
  email: z.string({ error: required('the customer\'s email address') }).pipe(emailSchema),
  ...profileFields,
}, { error: 'must be a JSON object' });

export const updateCustomerBodySchema = z.object({
  email: z.string({ error: 'must be an email address' }).pipe(emailSchema).optional(),
  ...profileFields,
}, { error: 'must be a JSON object' }).describe('Fields to change; null clears an optional field');

export const customerQuerySchema = z.object({
  ...pageParams,
  email: z.string().pipe(emailSchema).optional(),
});

/** Exactly one of `card` (vaulted with the acquirer) or `token` (a card token, consumed). */
export const attachPaymentMethodBodySchema = z.object({
  card: cardSchema.optional(),
  token: z.string({ error: 'must be a card token id (tok_…)' }).trim().optional(),
}, { error: 'must be a JSON object with card or token' }).superRefine((data, issues) => {
  if ((data.card === undefined) === (data.token === undefined)) {
    issues.addIssue({ code: 'custom', path: [data.card === undefined ? 'card' : 'token'], message: 'send exactly one of card (number, expiryMonth, expiryYear, cvv) or token' });
  }
}, evenWhenFieldsFail);

export const customerParamsSchema = z.object({ customerId: z.string() });
export const paymentMethodParamsSchema = z.object({ customerId: z.string(), paymentMethodId: z.string() });

export const toCreateCustomerCommand = (body: z.output<typeof createCustomerBodySchema>): CreateCustomerCommand => body;

export const toUpdateCustomerCommand = (customerId: string, body: z.output<typeof updateCustomerBodySchema>): UpdateCustomerCommand =>
  ({ customerId, ...body });

export const toCustomerFilters = (query: z.output<typeof customerQuerySchema>): CustomerFilters => ({ email: query.email });

export const toAttachPaymentMethodCommand = (customerId: string, body: z.output<typeof attachPaymentMethodBodySchema>): AttachPaymentMethodCommand =>
  ({ customerId, source: body.card ? { kind: 'card', card: body.card } : { kind: 'token', token: body.token! } });

export const toPaymentMethodRef = (params: z.output<typeof paymentMethodParamsSchema>): PaymentMethodRef => params;

// ---------------------------------------------------------------- responses

/** The documented saved-card item. */
export const paymentMethodSchema = z.object({
  id: z.string(),
  brand: z.string().describe('visa, mastercard, amex, discover or unknown'),
  last4: z.string(),
  expiryMonth: z.number().int(),
  expiryYear: z.number().int(),
});

/** A saved card as the attach operation returns it: the documented item plus its customer and whether it is the default. */
export const attachedPaymentMethodSchema = paymentMethodSchema.extend({
  object: z.literal('payment_method'),
  customerId: z.string(),
  country: z.string().describe('Issuing country (ISO 3166-1 alpha-2)'),
  isDefault: z.boolean(),
  createdAt: timestampSchema,
});

/** An item of `recentPayments` (the interface document leaves its fields open). */
export const recentPaymentSchema = z.object({
  paymentId: z.string(),
  amount: decimalStringSchema,
  amountMinor: z.string().describe('The amount in minor units, as a string'),
  currency: z.string().describe('Lower-case currency code'),
  status: z.enum(PaymentStatus),
  failureReason: z.string().nullable().describe('Why a FAILED payment failed (card_declined, blocked, …)'),
  amountRefunded: decimalStringSchema,
  email: z.string(),
  card: z.object({ brand: z.string(), last4: z.string() }),
  paymentMethodId: z.string().nullable().describe('The saved card charged, if any'),
  createdAt: timestampSchema,
});

/** The documented Customer resource (plus createdAt and updatedAt). */
export const customerSchema = z.object({
  customerId: z.string(),
  email: z.string(),
  paymentMethods: z.array(paymentMethodSchema).describe('Saved cards, newest first'),
  recentPayments: z.array(recentPaymentSchema).describe('The 20 most recent payments to the business in this mode, newest first'),
  userId: z.string().nullable().describe("The merchant's own id for the customer"),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  defaultPaymentMethod: paymentMethodSchema.nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});

export const customerPageSchema = offsetListSchema(customerSchema);

export const detachedPaymentMethodSchema = z.object({
  id: z.string(),
  object: z.literal('payment_method'),
  customerId: z.string(),
  deleted: z.literal(true),
});
