import { z } from 'zod';
import { ErrorCode } from '../../domain/shared/errors';
import { IdempotencyErrorCode } from '../../domain/idempotency';
import { ApiErrorCode, HttpErrorCode } from '../../http/error-codes';
import { API_ERROR_CODES, httpStatusOf } from '../../http/status';

/**
 * Response declarations of the REST surface: each route declares what it answers, in zod, and
 * the OpenAPI document (GET /api/v1/openapi.json) is generated from the same declarations. The
 * test suite checks every REST response against the document (src/rest/shared/response-check.ts).
 */

export const fieldErrorsSchema = z
  .record(z.string(), z.array(z.string()))
  .describe('Per-field messages, keyed by the field path (`items.0.amount`); `_` for the body as a whole');

export const errorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z
        .enum(API_ERROR_CODES as [ApiErrorCode, ...ApiErrorCode[]])
        .describe('The error code of the taxonomy (docs/rest-api.md, Errors)'),
      message: z.string(),
      statusCode: z.number().int().describe('The HTTP status, repeated'),
      errors: fieldErrorsSchema.optional(),
    }),
  })
  .meta({ id: 'ErrorEnvelope' });

/**
 * The error statuses every operation declares with a body of its own (the interface document's
 * list); rarer ones (402, 405, 413, 503, …) fall under `4XX` and `5XX`.
 */
export const DECLARED_ERROR_STATUSES = [400, 401, 403, 404, 409, 422, 429, 500] as const;
export type DeclaredErrorStatus = (typeof DECLARED_ERROR_STATUSES)[number];

/** The codes of the taxonomy (src/http/status.ts) that answer with `status`. */
export const errorCodesOf = (status: number) =>
  (Object.keys(httpStatusOf) as ApiErrorCode[]).filter((code) => httpStatusOf[code] === status);

/**
 * What any operation may answer at each declared status, whatever it does: its input refused
 * (400), no or a bad credential (401), a role without the permission (403), a missing object
 * (404), a conflict or an `Idempotency-Key` in use (409), the generic refusal (422), the rate
 * limit (429) and the unexpected (500). An operation adds the codes of its own rules with
 * `responses(…, refusals)`.
 */
export const SURFACE_ERROR_CODES: Record<DeclaredErrorStatus, readonly ApiErrorCode[]> = {
  400: [ErrorCode.VALIDATION_ERROR, ErrorCode.BAD_REQUEST],
  401: [ErrorCode.UNAUTHORIZED],
  403: [ErrorCode.FORBIDDEN],
  404: [ErrorCode.NOT_FOUND],
  409: [
    ErrorCode.CONFLICT,
    IdempotencyErrorCode.IDEMPOTENCY_KEY_REUSED,
    IdempotencyErrorCode.IDEMPOTENCY_REQUEST_IN_PROGRESS,
    IdempotencyErrorCode.IDEMPOTENCY_REQUEST_INTERRUPTED,
  ],
  422: [ErrorCode.UNPROCESSABLE],
  429: [HttpErrorCode.RATE_LIMITED],
  500: [HttpErrorCode.INTERNAL_ERROR],
};

const errorEnvelopeOf = (status: DeclaredErrorStatus, codes: readonly ApiErrorCode[]) =>
  z.object({
    success: z.literal(false),
    error: z.object({
      code: z
        .enum(codes as [ApiErrorCode, ...ApiErrorCode[]])
        .describe(`The error codes this operation answers with ${status} (docs/rest-api.md, Errors)`),
      message: z.string(),
      statusCode: z.literal(status).describe('The HTTP status, repeated'),
      errors: fieldErrorsSchema.optional(),
    }),
  });

/** The error body of a status where an operation answers only what any operation may: one named component per status. */
const surfaceErrorEnvelopes = Object.fromEntries(
  DECLARED_ERROR_STATUSES.map((status) => [
    status,
    errorEnvelopeOf(status, SURFACE_ERROR_CODES[status]).meta({ id: `ErrorEnvelope${status}` }),
  ]),
) as Record<number, z.ZodType>;

/**
 * The error bodies of an operation by declared status: `error.code` is an enum of what any
 * operation may answer at that status and of the operation's own `refusals` of that status, so a
 * typed client narrows on `INSUFFICIENT_FUNDS` where an operation can answer it, and the suite's
 * response check fails an answer with a code the operation did not declare. A refusal of a status
 * not declared on its own (`CARD_DECLINED`, 402) is under `4XX`.
 */
export function errorResponses(refusals: readonly ApiErrorCode[] = []) {
  return Object.fromEntries(
    DECLARED_ERROR_STATUSES.map((status) => {
      const own = refusals.filter(
        (code) => httpStatusOf[code] === status && !SURFACE_ERROR_CODES[status].includes(code),
      );
      return [
        status,
        own.length === 0
          ? surfaceErrorEnvelopes[status]
          : errorEnvelopeOf(status, [...SURFACE_ERROR_CODES[status], ...own]),
      ];
    }),
  ) as Record<number, z.ZodType>;
}

/** `{ success: true, data }` around a route's data. */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

/** The documented page of REST lists: `{ items, total, page, limit }`. */
export const offsetListSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int().min(1),
    limit: z.number().int().min(1),
  });

/** The answer of a DELETE: `{ id, object, deleted: true }`. */
export const deletedSchema = (object: string) =>
  z.object({ id: z.string(), object: z.literal(object), deleted: z.literal(true) });

/** An ISO 8601 timestamp in UTC, as `Date.toISOString()` writes it. */
export const timestampSchema = z.string().describe('ISO 8601 date-time in UTC');

/**
 * A currency code as every REST answer writes it: lower case (`"usd"`, `"usdc"`), whatever the
 * family (docs/rest-api.md, Money). Requests take any case; GraphQL's `Money.currency` and `/v1`
 * answer upper case, their own documented conventions.
 */
export const currencyCodeSchema = z
  .string()
  .regex(/^[a-z]{3,8}$/)
  .describe('Lower-case currency code, e.g. "usd"');

/** A decimal amount in major units, as a string (`"100.50"`). */
export const decimalStringSchema = z.string().describe('Decimal amount in major units, e.g. "100.50"');

/** The `:id` path parameter; any text is accepted (an unknown id answers 404, never 400). */
export const idParamsSchema = z.object({ id: z.string() });

/** The success answers a route declares, by status: the schema of `data` inside the envelope. */
export type Responses = Partial<Record<200 | 201 | 202, z.ZodType>>;

/** The declared success answers, each in the envelope (typed, so that a handler's return is checked against them). */
type Enveloped<D extends Responses> = {
  [S in keyof D]: D[S] extends z.ZodType ? ReturnType<typeof envelope<D[S]>> : never;
};

/**
 * The route schema's `response`: each declared `data` in the success envelope, the error envelope
 * of each declared error status with the codes the operation answers (`refusals`: the codes of its
 * own rules, beyond what any operation may answer), and the whole taxonomy under 4xx and 5xx.
 */
export function responses<const D extends Responses>(declared: D, refusals: readonly ApiErrorCode[] = []) {
  const enveloped: Record<string, z.ZodType> = {};
  for (const [status, data] of Object.entries(declared)) enveloped[status] = envelope(data);
  return {
    ...enveloped,
    ...errorResponses(refusals),
    '4xx': errorEnvelopeSchema,
    '5xx': errorEnvelopeSchema,
  } as Enveloped<D> & { '4xx': typeof errorEnvelopeSchema; '5xx': typeof errorEnvelopeSchema };
}

/** A route schema's `response` when the body is not the envelope (the OpenAPI document itself). */
export function rawResponses(declared: Responses) {
  return { ...declared, '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema };
}
