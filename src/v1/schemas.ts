import { z } from 'zod';

/**
 * Response declarations of `/v1`: each route declares what it answers in zod, and the surface's
 * OpenAPI document (GET /v1/openapi.json) is generated from them; the test suite checks every `/v1`
 * answer against it.
 */

export const v1ErrorSchema = z.object({
  error: z.object({
    code: z.string().describe('snake_case error code: invalid_api_key, validation_failed, bad_request, not_found, insufficient_balance, rate_limited, internal_error, …'),
    message: z.string(),
    details: z.record(z.string(), z.array(z.string())).optional().describe('validation_failed: the messages of each bad field, by field name'),
  }),
}).meta({ id: 'V1Error' });

/** An ISO 8601 timestamp in UTC. */
export const v1TimestampSchema = z.string().describe('ISO 8601 date-time in UTC');

/** A route's `response`: its success bodies by status, and the `/v1` error body for 4xx and 5xx. */
export function v1Responses<const D extends Partial<Record<200 | 201, z.ZodType>>>(declared: D) {
  return { ...declared, '4xx': v1ErrorSchema, '5xx': v1ErrorSchema };
}

/** `{ object: "list", data, has_more }`, the page of a `/v1` list. */
export const v1ListSchema = <T extends z.ZodType>(item: T) => z.object({
  object: z.literal('list'),
  data: z.array(item),
  has_more: z.boolean().describe('Whether more items follow: ask again with `after` set to the last id of `data`'),
});

/** A three-letter ISO 4217 code, any letter case. */
export const currencyCodeSchema = (hint = 'a 3-letter ISO currency code such as USD') =>
  z.string({ error: (issue) => (issue.input === undefined ? `is required: ${hint}` : 'must be a string') })
    .regex(/^[A-Za-z]{3}$/, `must be ${hint}`);

/** The code of a currency a wallet may hold: three letters (ISO 4217), or four for a stablecoin (USDC); any letter case. */
export const settlementCurrencySchema = (hint = 'a currency code such as USD, or USDC') =>
  z.string({ error: (issue) => (issue.input === undefined ? `is required: ${hint}` : 'must be a string') })
    .regex(/^[A-Za-z]{3,4}$/, `must be ${hint}`);
