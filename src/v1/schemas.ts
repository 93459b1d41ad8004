import { z } from 'zod';
import { ErrorCode } from '../domain/shared/errors';
import { IdempotencyErrorCode } from '../domain/idempotency';
import { ApiErrorCode, HttpErrorCode } from '../http/error-codes';
import { API_ERROR_CODES } from '../http/status';
import { v1StatusOf } from './errors';

/**
 * Response declarations of `/v1`: each route declares what it answers in zod, and the surface's
 * OpenAPI document (GET /v1/openapi.json) is generated from them; the test suite checks every `/v1`
 * answer against it.
 */

export const v1ErrorSchema = z
  .object({
    error: z.object({
      code: z
        .string()
        .describe(
          'snake_case error code: invalid_api_key, validation_failed, bad_request, not_found, insufficient_balance, rate_limited, internal_error, …',
        ),
      message: z.string(),
      details: z
        .record(z.string(), z.array(z.string()))
        .optional()
        .describe('validation_failed: the messages of each bad field, by field name'),
    }),
  })
  .meta({ id: 'V1Error' });

/** The error statuses every `/v1` operation declares with a body of its own; rarer ones fall under 4XX and 5XX. */
export const V1_DECLARED_ERROR_STATUSES = [400, 401, 403, 404, 409, 422, 429, 500] as const;
type V1DeclaredErrorStatus = (typeof V1_DECLARED_ERROR_STATUSES)[number];

/** The `/v1` codes that answer with `status` (src/v1/errors.ts). */
export const v1ErrorCodesOf = (status: number) => [
  ...new Set(
    API_ERROR_CODES.map(v1StatusOf)
      .filter(([answered]) => answered === status)
      .map(([, code]) => code),
  ),
];

/** The `/v1` codes of the domain's `codes` that answer with `status`. */
const v1CodesAt = (status: number, codes: readonly ApiErrorCode[]) => [
  ...new Set(
    codes
      .map(v1StatusOf)
      .filter(([answered]) => answered === status)
      .map(([, code]) => code),
  ),
];

/**
 * What any `/v1` operation may answer, whatever it does (as REST's SURFACE_ERROR_CODES): a
 * malformed request, a bad key, a missing object, an `Idempotency-Key` in use, a refused field, the
 * rate limit, the unexpected. An operation adds the codes of its own rules with `v1Responses(…, refusals)`.
 */
export const V1_SURFACE_ERROR_CODES: readonly ApiErrorCode[] = [
  ErrorCode.BAD_REQUEST,
  ErrorCode.VALIDATION_ERROR,
  ErrorCode.UNAUTHORIZED,
  ErrorCode.FORBIDDEN,
  ErrorCode.NOT_FOUND,
  ErrorCode.CONFLICT,
  IdempotencyErrorCode.IDEMPOTENCY_KEY_REUSED,
  IdempotencyErrorCode.IDEMPOTENCY_REQUEST_IN_PROGRESS,
  IdempotencyErrorCode.IDEMPOTENCY_REQUEST_INTERRUPTED,
  ErrorCode.UNPROCESSABLE,
  HttpErrorCode.RATE_LIMITED,
  HttpErrorCode.INTERNAL_ERROR,
];

const v1ErrorOf = (status: V1DeclaredErrorStatus, codes: string[]) =>
  z.object({
    error: z.object({
      code: z
        .enum(codes as [string, ...string[]])
        .describe(`The /v1 error codes this operation answers with ${status} (docs/alt-v1.md)`),
      message: z.string(),
      details: v1ErrorSchema.shape.error.shape.details,
    }),
  });

const v1SurfaceErrors = Object.fromEntries(
  V1_DECLARED_ERROR_STATUSES.map((status) => [
    status,
    v1ErrorOf(status, v1CodesAt(status, V1_SURFACE_ERROR_CODES)).meta({ id: `V1Error${status}` }),
  ]),
) as Record<number, z.ZodType>;

/** The `/v1` error bodies of an operation by declared status: what any operation may answer, and its own `refusals`. */
function v1ErrorResponses(refusals: readonly ApiErrorCode[]) {
  return Object.fromEntries(
    V1_DECLARED_ERROR_STATUSES.map((status) => {
      const surface = v1CodesAt(status, V1_SURFACE_ERROR_CODES);
      const own = v1CodesAt(status, refusals).filter((code) => !surface.includes(code));
      return [status, own.length === 0 ? v1SurfaceErrors[status] : v1ErrorOf(status, [...surface, ...own])];
    }),
  ) as Record<number, z.ZodType>;
}

/** An ISO 8601 timestamp in UTC. */
export const v1TimestampSchema = z.string().describe('ISO 8601 date-time in UTC');

/**
 * A route's `response`: its success bodies by status, the `/v1` error body of each declared error
 * status with the codes the operation answers (`refusals`: those of its own rules), and any code under 4xx and 5xx.
 */
export function v1Responses<const D extends Partial<Record<200 | 201, z.ZodType>>>(
  declared: D,
  refusals: readonly ApiErrorCode[] = [],
) {
  return { ...declared, ...v1ErrorResponses(refusals), '4xx': v1ErrorSchema, '5xx': v1ErrorSchema };
}

/** `{ object: "list", data, has_more }`, the page of a `/v1` list. */
export const v1ListSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean().describe('Whether more items follow: ask again with `after` set to the last id of `data`'),
  });

/** A three-letter ISO 4217 code, any letter case. */
export const currencyCodeSchema = (hint = 'a 3-letter ISO currency code such as USD') =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `is required: ${hint}` : 'must be a string') })
    .regex(/^[A-Za-z]{3}$/, `must be ${hint}`);

/** The code of a currency a wallet may hold: three letters (ISO 4217), or four for a stablecoin (USDC); any letter case. */
export const settlementCurrencySchema = (hint = 'a currency code such as USD, or USDC') =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `is required: ${hint}` : 'must be a string') })
    .regex(/^[A-Za-z]{3,4}$/, `must be ${hint}`);
