import { z } from 'zod';
import { CustomerFilters, PaymentMethodRef } from '../../domain/customers';
import { PaymentStatus } from '../../domain/payments';
import { emailSchema, pageParams } from '../../wire/validation';
import { currencyCodeSchema, decimalStringSchema, offsetListSchema, timestampSchema } from '../shared/schemas';

// ---------------------------------------------------------------- requests

export const customerQuerySchema = z.object({
  ...pageParams,
  email: z.string().pipe(emailSchema).optional(),
});

export const customerParamsSchema = z.object({ customerId: z.string() });
export const paymentMethodParamsSchema = z.object({ customerId: z.string(), paymentMethodId: z.string() });

export const toCustomerFilters = (query: z.output<typeof customerQuerySchema>): CustomerFilters => ({
  email: query.email,
});

export const toPaymentMethodRef = (params: z.output<typeof paymentMethodParamsSchema>): PaymentMethodRef => params;

// ---------------------------------------------------------------- responses

/** The documented saved-card item. */
export const paymentMethodSchema = z
  .object({
    id: z.string(),
    brand: z.string().describe('visa, mastercard, amex, discover or unknown'),
    last4: z.string(),
    expiryMonth: z.number().int().min(1).max(12),
    expiryYear: z.number().int().min(1000).max(9999).describe('Four-digit year'),
  })
  .meta({ id: 'PaymentMethod' });

/** A saved card as the attach operation returns it: the documented item plus its customer and whether it is the default. */
export const attachedPaymentMethodSchema = paymentMethodSchema
  .extend({
    object: z.literal('payment_method'),
    customerId: z.string(),
    country: z.string().describe('Issuing country (ISO 3166-1 alpha-2)'),
    isDefault: z.boolean(),
    createdAt: timestampSchema,
  })
  .meta({ id: 'AttachedPaymentMethod' });

/** An item of `recentPayments` (the interface document leaves its fields open). */
export const recentPaymentSchema = z.object({
  paymentId: z.string(),
  amount: decimalStringSchema,
  amountMinor: z.string().describe('The amount in minor units, as a string'),
  currency: currencyCodeSchema,
  status: z.enum(PaymentStatus),
  failureReason: z.string().nullable().describe('Why a FAILED payment failed (card_declined, blocked, …)'),
  amountRefunded: decimalStringSchema,
  email: z.string(),
  card: z.object({ brand: z.string(), last4: z.string() }),
  paymentMethodId: z.string().nullable().describe('The saved card charged, if any'),
  createdAt: timestampSchema,
});

/** The documented Customer resource (plus createdAt and updatedAt). */
export const customerSchema = z
  .object({
    customerId: z.string(),
    email: z.string(),
    paymentMethods: z.array(paymentMethodSchema).describe('Saved cards, newest first'),
    recentPayments: z
      .array(recentPaymentSchema)
      .describe('The 20 most recent payments to the business in this mode, newest first'),
    userId: z.string().nullable().describe("The merchant's own id for the customer"),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    defaultPaymentMethod: paymentMethodSchema.nullable(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Customer' });

export const customerPageSchema = offsetListSchema(customerSchema);

export const detachedPaymentMethodSchema = z
  .object({
    id: z.string(),
    object: z.literal('payment_method'),
    customerId: z.string(),
    deleted: z.literal(true),
  })
  .meta({ id: 'DetachedPaymentMethod' });
