/**
 * The scheduled-payout requests as both faces accept them (REST `/business/payouts/schedules...`,
 * and the GraphQL schedule mutations): one shape each, the same field messages, one mapping
 * to the domain's commands. Shape only; the domain decides the cadence rules, caps, recipients, PIN.
 */
import { z } from 'zod';
import {
  BatchItem,
  CAP_AMOUNT,
  CAP_AMOUNT_MESSAGE,
  CreateScheduleCommand,
  MAX_BATCH_ITEMS,
  MAX_DAY_OF_MONTH,
  MAX_LOCAL_CAPS,
  MIN_DAY_OF_MONTH,
  ScheduleCadence,
  SchedulePayload,
  SchedulePayloadKind,
  UpdateScheduleCommand,
} from '../domain/payouts';
import { FieldErrors, validationError } from '../domain/shared/errors';
import { normalizeCurrency, toMinor } from '../domain/shared/money';
import { currencySchema, dateTimeSchema, decimalAmount, evenWhenFieldsFail, required } from './validation';

const CADENCES = Object.values(ScheduleCadence).join(', ');
const KINDS = Object.values(SchedulePayloadKind).join(', ');

const nameSchema = z
  .string({ error: required('a name for the schedule') })
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters');
const cadenceSchema = z.enum(ScheduleCadence, { error: required(`one of ${CADENCES}`) });
const payloadKindSchema = z.enum(SchedulePayloadKind, { error: required(`one of ${KINDS}`) });
const DAY_MESSAGE = `must be a day of the month from ${MIN_DAY_OF_MONTH} to ${MAX_DAY_OF_MONTH}, or null`;
const dayOfMonthSchema = z
  .number({ error: DAY_MESSAGE })
  .int(DAY_MESSAGE)
  .min(MIN_DAY_OF_MONTH, DAY_MESSAGE)
  .max(MAX_DAY_OF_MONTH, DAY_MESSAGE)
  .nullish()
  .describe('MONTHLY only (required then): the day of the month, 1 to 28; null for other cadences');
const capAmountSchema = (hint: string) => z.string({ error: required(hint) }).regex(CAP_AMOUNT, CAP_AMOUNT_MESSAGE);
const idSchema = (what: string) =>
  z
    .string({ error: required(what) })
    .trim()
    .min(1, 'must not be empty')
    .max(64, 'is not a valid id');
const referenceSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .max(200, 'must be at most 200 characters')
  .nullish();
const pinSchema = z.string({ error: required('the payout PIN, 6 digits as a string') });

const localCapSchema = z.object(
  {
    currency: z
      .string({ error: required('the destination currency the cap applies to') })
      .min(3, 'must be 3 to 8 characters')
      .max(8, 'must be 3 to 8 characters'),
    amount: capAmountSchema('the most paid in that currency per run, such as "500000.00"'),
  },
  { error: 'must be a JSON object' },
);

const localCapsSchema = z
  .array(localCapSchema, { error: 'must be an array of { currency, amount }, or null' })
  .max(MAX_LOCAL_CAPS, `must hold at most ${MAX_LOCAL_CAPS} caps`)
  .nullish()
  .describe("Per-currency caps on the sum of a run's destination amounts, never converted; null: USD cap only");

const batchItemSchema = z.object(
  {
    recipientId: idSchema('the id of a recipient'),
    amount: decimalAmount('a decimal amount such as "100.50"'),
    currency: currencySchema,
    reference: referenceSchema,
  },
  { error: 'must be a JSON object' },
);

/** SINGLE: `{ recipientId, amount, currency, reference? }`; BATCH: `{ items: [...] }` (1 to 1,000). */
const payloadSchema = z
  .object(
    {
      recipientId: idSchema('the id of a recipient').optional().describe('SINGLE'),
      amount: decimalAmount('a decimal amount of the wallet currency, such as "100.50"')
        .optional()
        .describe('SINGLE: in the wallet currency'),
      currency: currencySchema.optional().describe('SINGLE: the wallet debited'),
      reference: referenceSchema.describe('SINGLE'),
      items: z
        .array(batchItemSchema, { error: `must be an array of 1 to ${MAX_BATCH_ITEMS} payouts` })
        .optional()
        .describe('BATCH: the payouts of each run'),
    },
    { error: 'must be a JSON object' },
  )
  .describe('Frozen at creation: SINGLE { recipientId, amount, currency, reference? } or BATCH { items: [...] }');

/** The payload's fields required by its kind, and those it must not have. */
function checkPayloadShape(kind: unknown, payload: unknown, context: z.core.$RefinementCtx): void {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return;
  const fields = payload as Record<string, unknown>;
  const issue = (field: string, message: string) =>
    context.addIssue({ code: 'custom', path: ['payload', field], message });
  if (kind === SchedulePayloadKind.SINGLE) {
    if (fields.recipientId === undefined) issue('recipientId', 'is required: the id of a recipient');
    if (fields.amount === undefined) issue('amount', 'is required: a decimal amount such as "100.50"');
    if (fields.currency === undefined) issue('currency', 'is required: a currency code such as usd');
    if (fields.items !== undefined) issue('items', 'is for BATCH payloads only');
  } else if (kind === SchedulePayloadKind.BATCH) {
    if (!Array.isArray(fields.items)) issue('items', `is required: an array of 1 to ${MAX_BATCH_ITEMS} payouts`);
    else if (fields.items.length === 0 || fields.items.length > MAX_BATCH_ITEMS)
      issue('items', `must hold 1 to ${MAX_BATCH_ITEMS} payouts`);
    for (const field of ['recipientId', 'amount', 'currency', 'reference'])
      if (fields[field] !== undefined) issue(field, 'is for SINGLE payloads only (BATCH takes items)');
  }
}

export const createScheduleBodySchema = z
  .object(
    {
      name: nameSchema,
      cadence: cadenceSchema,
      dayOfMonth: dayOfMonthSchema,
      startAt: dateTimeSchema.describe(
        'The first run (MONTHLY: the first dayOfMonth on or after it, at its UTC time of day)',
      ),
      endAt: dateTimeSchema.nullish().describe('No run after it; not before the first run'),
      payloadKind: payloadKindSchema,
      payload: payloadSchema,
      maxRunAmountUsd: capAmountSchema(
        'the most a run may pay, in US dollars at the mid rate of run time, such as "10000.00"',
      ),
      maxRunLocalCaps: localCapsSchema,
      pin: pinSchema,
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((body, context) => checkPayloadShape(body.payloadKind, body.payload, context), evenWhenFieldsFail);

export const updateScheduleBodySchema = z
  .object(
    {
      name: nameSchema.optional(),
      cadence: cadenceSchema.optional(),
      dayOfMonth: dayOfMonthSchema,
      endAt: dateTimeSchema.nullish(),
      maxRunAmountUsd: capAmountSchema('a decimal amount of US dollars').optional(),
      maxRunLocalCaps: localCapsSchema,
      payloadKind: payloadKindSchema.optional().describe('With payload: its kind'),
      payload: payloadSchema.optional().describe('A new payload: needs pin (and payloadKind); authorizedAt is renewed'),
      pin: pinSchema.nullish().describe('Required with payload'),
    },
    { error: 'must be a JSON object' },
  )
  .strict()
  .superRefine((body, context) => {
    if (body.payload !== undefined && body.payloadKind === undefined)
      context.addIssue({ code: 'custom', path: ['payloadKind'], message: `is required with payload: one of ${KINDS}` });
    if (body.payload !== undefined) checkPayloadShape(body.payloadKind, body.payload, context);
  }, evenWhenFieldsFail);

type PayloadInput = z.output<typeof payloadSchema>;

/** The payload with its amounts in minor units; every bad amount or currency under its own `payload.…` field. */
function payloadOf(kind: SchedulePayloadKind, payload: PayloadInput): SchedulePayload {
  const errors: FieldErrors = {};
  const item = (
    input: { recipientId?: string; amount?: string | number; currency?: string; reference?: string | null },
    prefix: string,
  ): BatchItem | null => {
    try {
      const currency = normalizeCurrency(input.currency!, `${prefix}currency`);
      return {
        recipientId: input.recipientId!,
        amount: toMinor(input.amount!, currency, `${prefix}amount`),
        currency,
        reference: input.reference || null,
      };
    } catch (error) {
      Object.assign(errors, (error as { fieldErrors?: FieldErrors }).fieldErrors ?? {});
      return null;
    }
  };
  const result: SchedulePayload =
    kind === SchedulePayloadKind.SINGLE
      ? { kind, payout: item(payload, 'payload.')! }
      : { kind, items: payload.items!.map((entry, index) => item(entry, `payload.items.${index}.`)!) };
  if (Object.keys(errors).length > 0) throw validationError(errors, 'The schedule is invalid; nothing was written');
  return result;
}

const capsOf = (caps: Array<{ currency: string; amount: string }> | null | undefined) =>
  caps?.map((cap) => ({ currency: cap.currency, amount: cap.amount })) ?? null;

export const toCreateScheduleCommand = (body: z.output<typeof createScheduleBodySchema>): CreateScheduleCommand => ({
  name: body.name,
  cadence: body.cadence,
  dayOfMonth: body.dayOfMonth ?? null,
  startAt: body.startAt,
  endAt: body.endAt ?? null,
  payload: payloadOf(body.payloadKind, body.payload),
  maxRunAmountUsd: body.maxRunAmountUsd,
  maxRunLocalCaps: capsOf(body.maxRunLocalCaps),
  pin: body.pin,
});

/** Absent fields stay as they are; `null` clears dayOfMonth, endAt and maxRunLocalCaps. */
export const toUpdateScheduleCommand = (
  scheduleId: string,
  body: z.output<typeof updateScheduleBodySchema>,
): UpdateScheduleCommand => ({
  scheduleId,
  name: body.name,
  cadence: body.cadence,
  dayOfMonth: body.dayOfMonth,
  endAt: body.endAt,
  maxRunAmountUsd: body.maxRunAmountUsd,
  maxRunLocalCaps: body.maxRunLocalCaps === undefined ? undefined : capsOf(body.maxRunLocalCaps),
  payload: body.payload !== undefined ? payloadOf(body.payloadKind!, body.payload) : undefined,
  pin: body.pin,
});
