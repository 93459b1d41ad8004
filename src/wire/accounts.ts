/**
 * Wire shapes of identity that more than one face reads (GraphQL sign-up, the operator CLI):
 * the same checks and messages whichever face a new account arrives through.
 */
import { z } from 'zod';
import { absoluteUrlSchema, emailSchema, required } from './validation';
import { Role } from '../domain/shared/modes';

const nameSchema = z.string().trim().min(1, 'must not be empty').max(200);

/** A new dashboard account and its first business: sign-up and the operator's `business create`. */
export const newAccountSchema = z.object({
  email: emailSchema,
  password: z.string().min(10, 'must be at least 10 characters').max(200),
  name: nameSchema,
  businessName: nameSchema,
});

/** `POST /business/auth/token` (400 when either is missing). */
export const tokenExchangeSchema = z.object({
  apiKey: z.string({ error: required() }).min(1, 'must not be empty'),
  apiSecret: z.string({ error: required() }).min(1, 'must not be empty'),
});

/** `PUT /business/config`. */
export const webhookConfigSchema = z.object({
  webhookUrl: z.union([absoluteUrlSchema, z.null()], {
    error: required('an absolute http(s) URL, or null to remove it'),
  }),
});

/** `/v1`'s webhook URL of a mode (GraphQL setV1WebhookUrl, `tessera v1-webhook-url`): an absolute http(s) URL, or null to remove it. */
export const v1WebhookUrlSchema = z.object({
  webhookUrl: z.union([absoluteUrlSchema, z.null()], {
    error: required('an absolute http(s) URL, or null to remove it'),
  }),
});

/** The business profile and webhook URL (GraphQL updateBusinessSettings). */
export const businessSettingsSchema = z.object({
  name: nameSchema.optional(),
  webhookUrl: absoluteUrlSchema.nullable().optional(),
});

export const inviteSchema = z.object({ email: emailSchema, role: z.enum(Role) });
