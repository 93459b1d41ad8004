/**
 * The wire-shape toolkit the faces share: zod helpers whose messages every face answers alike
 * ("is required: …", "must be a string", every bad field at once). A face checks shape with these
 * and builds a typed domain command; the domain never parses wire input.
 */
import { z } from 'zod';
import { DomainError, FieldErrors, validationError } from '../domain/shared/errors';
import { isUuid } from '../domain/shared/ids';
import { DECIMAL_AMOUNT_MESSAGE, isDecimalAmount } from '../domain/shared/money';

export { isUuid };
import { MAX_PAGE_SIZE } from '../domain/shared/pagination';

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  record: 'an object',
  array: 'an array',
  date: 'a date',
  null: 'null',
};

type BranchIssue = { code: string; path: PropertyKey[]; expected?: string; values?: unknown[] };

/** What a value must be, read from a type-level issue ("a string", "a number or a string", "one of A, B"). */
function expectedOf(issue: BranchIssue & { errors?: BranchIssue[][] }): string | undefined {
  if (issue.code === 'invalid_type') return TYPE_NAMES[issue.expected ?? ''] ?? issue.expected;
  if (issue.code === 'invalid_value') return issue.values ? `one of ${issue.values.map(String).join(', ')}` : undefined;
  if (issue.code !== 'invalid_union' || !issue.errors) return undefined;
  const branches = issue.errors.map((branch) =>
    branch.length === 1 && branch[0].path.length === 0 ? expectedOf(branch[0]) : undefined,
  );
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
export const required =
  (hint?: string): z.core.$ZodErrorMap =>
  (issue) =>
    typeMessage(issue, hint);

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

/** Checks a wire value's shape: the parsed value, or VALIDATION_ERROR with every bad field. */
export function checkShape<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { value: z.output<S> } | { error: DomainError } {
  const result = schema.safeParse(input, { error: (issue) => typeMessage(issue) });
  return result.success ? { value: result.data } : { error: validationError(fieldErrorsOf(result.error)) };
}

/** The parsed value of a wire input, or a thrown VALIDATION_ERROR naming every bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const checked = checkShape(schema, input);
  if ('error' in checked) throw checked.error;
  return checked.value;
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

/**
 * A list filter on one of an enum's values (status, source, type): any letter case and
 * surrounding spaces name the same value, so `completed`, `Completed` and `COMPLETED` filter alike.
 */
export function enumFilter<const T extends z.core.util.EnumLike>(values: T) {
  const allowed = Object.values(values).filter((value): value is string => typeof value === 'string');
  const canonical = (input: unknown) =>
    typeof input === 'string'
      ? (allowed.find((value) => value.toLowerCase() === input.trim().toLowerCase()) ?? input)
      : input;
  return z.preprocess(canonical, z.enum(values, { error: `must be one of ${allowed.join(', ')}` }));
}

/** An optional query-string integer in [1, max] (query values arrive as strings). */
export const integerParam = (max: number) => {
  const message =
    max === Number.MAX_SAFE_INTEGER ? 'must be an integer of at least 1' : `must be an integer between 1 and ${max}`;
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
export const currencySchema = z
  .string({ error: required('a currency code such as usd') })
  .min(3, 'must be a currency code such as usd')
  .max(8, 'must be a currency code such as usd');
export const metadataSchema = z
  .record(z.string(), z.unknown(), { error: 'must be a JSON object' })
  .refine((value) => JSON.stringify(value).length <= 8192, 'must be at most 8 KB of JSON')
  .nullish();

/** Objects and arrays nest at most this deep in any request (JSON bodies, GraphQL variables). */
export const MAX_INPUT_DEPTH = 32;

const NUL = '\u0000';
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const NUL_MESSAGE = 'must not contain NUL (U+0000) characters';
export const SURROGATE_MESSAGE = 'must not contain unpaired UTF-16 surrogates (invalid Unicode)';
const UNSAFE_KEY_MESSAGE = 'must not have keys containing NUL (U+0000) characters or unpaired surrogates';

/** What is wrong with a piece of text that no column, JSON document or log line can hold, if anything. */
export function unsafeTextMessages(text: string): string[] {
  const messages: string[] = [];
  if (text.includes(NUL)) messages.push(NUL_MESSAGE);
  if (UNPAIRED_SURROGATE.test(text)) messages.push(SURROGATE_MESSAGE);
  return messages;
}

/**
 * Every string of an incoming value (object keys included) that PostgreSQL cannot store: a NUL
 * character (text and jsonb refuse it) or an unpaired surrogate (not Unicode; jsonb refuses its
 * escape), and any nesting deeper than MAX_INPUT_DEPTH, as per-field errors named by their path
 * below `path` (`items.0.description`; `_` for the value itself). Iterative, so no input is too
 * deep to be judged. Empty when the value is clean.
 */
export function unsafeInputErrors(value: unknown, path: string): FieldErrors {
  const errors: FieldErrors = {};
  const report = (at: string, messages: string[]) => {
    if (messages.length > 0)
      (errors[at || '_'] ??= []).push(...messages.filter((message) => !errors[at || '_']?.includes(message)));
  };
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value, path, depth: 0 }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (typeof item.value === 'string') {
      report(item.path, unsafeTextMessages(item.value));
      continue;
    }
    if (typeof item.value !== 'object' || item.value === null || item.value instanceof Date) continue;
    if (item.depth >= MAX_INPUT_DEPTH) {
      report(item.path, [`is nested too deeply (at most ${MAX_INPUT_DEPTH} levels of objects and arrays)`]);
      continue;
    }
    for (const [key, child] of Object.entries(item.value)) {
      const childPath = item.path ? `${item.path}.${key}` : key;
      if (unsafeTextMessages(key).length > 0) {
        report(item.path, [UNSAFE_KEY_MESSAGE]);
        continue;
      }
      pending.push({ value: child, path: childPath, depth: item.depth + 1 });
    }
  }
  return errors;
}

/** The first and last instants a date filter may name: four-digit years, which PostgreSQL and every client can hold. */
export const EARLIEST_DATE = new Date('0001-01-01T00:00:00.000Z');
export const LATEST_DATE = new Date('9999-12-31T23:59:59.999Z');
const DATE_MESSAGE = 'must be an ISO 8601 date-time';
const DATE_RANGE_MESSAGE = 'must be a date-time between 0001-01-01 and 9999-12-31';

/**
 * A date-time input (a filter's `from`/`to`): an ISO 8601 string (REST) or a Date (GraphQL's
 * DateTimeISO scalar), within the years 0001 to 9999. `new Date` alone accepts years such as
 * 99999 or -271821 that PostgreSQL cannot store.
 */
export const dateTimeSchema = z.union([z.string(), z.date()], { error: DATE_MESSAGE }).transform((value, context) => {
  const date = typeof value === 'string' ? new Date(value.trim()) : value;
  if (Number.isNaN(date.getTime())) {
    context.addIssue({ code: 'custom', message: DATE_MESSAGE });
    return z.NEVER;
  }
  if (date < EARLIEST_DATE || date > LATEST_DATE) {
    context.addIssue({ code: 'custom', message: DATE_RANGE_MESSAGE });
    return z.NEVER;
  }
  return date;
});

/** `page` (from 1) and `limit` (1 to 100) of REST lists. */
export const pageParams = {
  page: integerParam(Number.MAX_SAFE_INTEGER),
  limit: integerParam(MAX_PAGE_SIZE),
};

/**
 * `skip` (from 0, default 0) and `take` (default 20; above 100 is capped at 100) of the payouts
 * family's lists (design section 8, interface document Limits).
 */
export const skipTakeParams = {
  skip: z
    .union([z.string(), z.number()], { error: 'must be an integer of at least 0' })
    .refine((value) => /^\d{1,15}$/.test(String(value)), 'must be an integer of at least 0')
    .transform((value) => Number(value))
    .optional(),
  take: z
    .union([z.string(), z.number()], { error: 'must be an integer of at least 1' })
    .refine((value) => /^\d{1,15}$/.test(String(value)) && Number(value) >= 1, 'must be an integer of at least 1')
    .transform((value) => Math.min(Number(value), MAX_PAGE_SIZE))
    .optional(),
};
