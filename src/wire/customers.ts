/**
 * The customer requests as both faces accept them (REST `/business/customers` and the GraphQL
 * customer mutations): create, update and attach a saved card, one shape each, so both faces answer
 * a bad request with the same field messages, and one mapping to the domain's commands.
 */
import { z } from 'zod';
import { AttachPaymentMethodCommand, CreateCustomerCommand, UpdateCustomerCommand } from '../domain/customers';
import { cardSchema } from './card';
import { emailSchema, evenWhenFieldsFail, required } from './validation';

const text = (max: number) =>
  z
    .string({ error: 'must be a string or null' })
    .trim()
    .min(1, 'must not be empty; send null to clear it')
    .max(max, `must be at most ${max} characters`)
    .nullable();
const phoneSchema = z
  .string({ error: 'must be a string or null' })
  .trim()
  .regex(/^\+?[0-9][0-9 ().-]{3,30}$/, 'must be a phone number such as +14155550100')
  .nullable();

const profileFields = {
  userId: text(200).optional().describe("The merchant's own id for the customer"),
  firstName: text(100).optional(),
  lastName: text(100).optional(),
  phoneNumber: phoneSchema.optional(),
};

export const createCustomerBodySchema = z.object(
  {
    email: z.string({ error: required("the customer's email address") }).pipe(emailSchema),
    ...profileFields,
  },
  { error: 'must be a JSON object' },
);

export const updateCustomerBodySchema = z
  .object(
    {
      email: z.string({ error: 'must be an email address' }).pipe(emailSchema).optional(),
      ...profileFields,
    },
    { error: 'must be a JSON object' },
  )
  .describe('Fields to change; null clears an optional field');

/** Exactly one of `card` (vaulted with the acquirer) or `token` (a card token, consumed). */
export const attachPaymentMethodBodySchema = z
  .object(
    {
      card: cardSchema.optional(),
      token: z.string({ error: 'must be a card token id (tok_…)' }).trim().optional(),
    },
    { error: 'must be a JSON object with card or token' },
  )
  .superRefine((data, issues) => {
    if ((data.card === undefined) === (data.token === undefined)) {
      issues.addIssue({
        code: 'custom',
        path: [data.card === undefined ? 'card' : 'token'],
        message: 'send exactly one of card (number, expiryMonth, expiryYear, cvv) or token',
      });
    }
  }, evenWhenFieldsFail);

export const toCreateCustomerCommand = (body: z.output<typeof createCustomerBodySchema>): CreateCustomerCommand => body;

export const toUpdateCustomerCommand = (
  customerId: string,
  body: z.output<typeof updateCustomerBodySchema>,
): UpdateCustomerCommand => ({ customerId, ...body });

export const toAttachPaymentMethodCommand = (
  customerId: string,
  body: z.output<typeof attachPaymentMethodBodySchema>,
): AttachPaymentMethodCommand => ({
  customerId,
  source: body.card ? { kind: 'card', card: body.card } : { kind: 'token', token: body.token! },
});
