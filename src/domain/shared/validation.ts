import { z } from 'zod';
import { FieldErrors, validationError } from './errors';

/** Converts zod issues to the per-field `errors` map of the error envelope. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : '_';
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

/** Validates input with a schema owned by the domain; both faces call services that call this. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(fieldErrorsOf(result.error));
  return result.data;
}

export const emailSchema = z.string().trim().toLowerCase().email('must be a valid email address').max(254);

export const absoluteUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else cannot name a row, so lookups answer NOT_FOUND without a query. */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** An optional query-string integer in [1, max] (query values arrive as strings). */
export const integerParam = (max: number) => {
  const message = max === Number.MAX_SAFE_INTEGER ? 'must be an integer of at least 1' : `must be an integer between 1 and ${max}`;
  return z
    .union([z.string(), z.number()], { error: message })
    .refine((value) => /^\d+$/.test(String(value)) && Number(value) >= 1 && Number(value) <= max, message)
    .transform((value) => Number(value))
    .optional();
};

/** Decimal major-unit amounts: a number or a string such as "25.00". */
export const amountSchema = z.union([z.number(), z.string()], { error: 'is required: a positive decimal amount such as 25.00' });
export const currencySchema = z.string({ error: 'is required: a currency code such as usd' }).min(3, 'must be a currency code such as usd').max(8, 'must be a currency code such as usd');
export const metadataSchema = z.record(z.string(), z.unknown(), { error: 'must be a JSON object' })
  .refine((value) => JSON.stringify(value).length <= 8192, 'must be at most 8 KB of JSON').nullish();
