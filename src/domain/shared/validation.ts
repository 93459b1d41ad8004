import { z } from 'zod';
import { FieldErrors, validationError } from './errors';
import { DECIMAL_AMOUNT_MESSAGE, isDecimalAmount } from './money';

const TYPE_NAMES: Record<string, string> = {
  string: 'a string', number: 'a number', int: 'an integer', bigint: 'an integer', boolean: 'a boolean',
  object: 'an object', record: 'an object', array: 'an array', date: 'a date', null: 'null',
};

type BranchIssue = { code: string; path: PropertyKey[]; expected?: string; values?: unknown[] };

/** What a value must be, read from a type-level issue ("a string", "a number or a string", "one of A, B"). */
function expectedOf(issue: BranchIssue & { errors?: BranchIssue[][] }): string | undefined {
  if (issue.code === 'invalid_type') return TYPE_NAMES[issue.expected ?? ''] ?? issue.expected;
  if (issue.code === 'invalid_value') return issue.values ? `one of ${issue.values.map(String).join(', ')}` : undefined;
  if (issue.code !== 'invalid_union' || !issue.errors) return undefined;
  const branches = issue.errors.map((branch) => (branch.length === 1 && branch[0].path.length === 0 ? expectedOf(branch[0]) : undefined));
  return branches.every(Boolean) ? [...new Set(branches)].join(' or ') : undefined;
}

const TYPE_LEVEL = new Set(['invalid_type', 'invalid_union', 'invalid_value']);

/**
 * The message of a value that is missing or of the wrong type: "is required" only when the field
 * is absent (undefined), otherwise what it must be ("must be a string", "must be a number or a
 * string", "must be one of …"). Other issues (formats, ranges, rules) keep their own message.
 */
function typeMessage(issue: z.core.$ZodRawIssue, hint?: string): string | undefined {
  if (!TYPE_LEVEL.has(issue.code)) return undefined;
  if (issue.input === undefined) return hint ? `is required: ${hint}` : 'is required';
  const expected = expectedOf(issue as unknown as BranchIssue);
  return expected ? `must be ${expected}` : undefined;
}

/**
 * The `error` of a field that must be present: `z.string({ error: required('a currency code such
 * as usd') })` answers "is required: a currency code such as usd" when it is absent and "must be a
 * string" when it is of another type. Never write "is required" as a plain `error` string: it would
 * be the message of every type failure too.
 */
export const required = (hint?: string): z.core.$ZodErrorMap => (issue) => typeMessage(issue, hint);

/**
 * Options for an object-level rule (`superRefine`) that must run even when a field failed, so that
 * one answer names every bad field (zod skips such rules once any field has an issue). The rule
 * then sees the fields as sent, possibly invalid: it may only rely on their presence or on types it
 * checks itself.
 */
export const evenWhenFieldsFail: z.core.$ZodSuperRefineParams = {
  when: (payload) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
};

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
  const result = schema.safeParse(input, { error: (issue) => typeMessage(issue) });
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

/**
 * A list filter on one of an enum's values (status, source, type): any letter case and
 * surrounding spaces name the same value, so `completed`, `Completed` and `COMPLETED` filter alike.
 */
export function enumFilter<const T extends z.core.util.EnumLike>(values: T) {
  const allowed = Object.values(values).filter((value): value is string => typeof value === 'string');
  const canonical = (input: unknown) =>
    typeof input === 'string' ? allowed.find((value) => value.toLowerCase() === input.trim().toLowerCase()) ?? input : input;
  return z.preprocess(canonical, z.enum(values, { error: `must be one of ${allowed.join(', ')}` }));
}

/** An optional query-string integer in [1, max] (query values arrive as strings). */
export const integerParam = (max: number) => {
  const message = max === Number.MAX_SAFE_INTEGER ? 'must be an integer of at least 1' : `must be an integer between 1 and ${max}`;
  return z
    .union([z.string(), z.number()], { error: message })
    .refine((value) => /^\d+$/.test(String(value)) && Number(value) >= 1 && Number(value) <= max, message)
    .transform((value) => Number(value))
    .optional();
};

/**
 * A decimal major-unit amount: a number or a string such as "25.00", written as a plain
 * non-negative decimal. Zero and the currency's decimal places are checked with the currency.
 */
export const decimalAmount = (hint?: string) =>
  z.union([z.number(), z.string()], { error: required(hint) }).refine(isDecimalAmount, DECIMAL_AMOUNT_MESSAGE);
export const amountSchema = decimalAmount('a positive decimal amount such as 25.00');
export const currencySchema = z.string({ error: required('a currency code such as usd') }).min(3, 'must be a currency code such as usd').max(8, 'must be a currency code such as usd');
export const metadataSchema = z.record(z.string(), z.unknown(), { error: 'must be a JSON object' })
  .refine((value) => JSON.stringify(value).length <= 8192, 'must be at most 8 KB of JSON').nullish();
