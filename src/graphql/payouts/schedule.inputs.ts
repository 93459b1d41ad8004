import { Field, ID, InputType, Int } from 'type-graphql';
import { ScheduleCadence, SchedulePayloadKind } from '../../domain/payouts';
import { IdInput } from '../shared/payload';
import { PayoutBatchItemInput } from './payout.inputs';

/**
 * The inputs of the schedule mutations, field for field the REST bodies (src/wire/schedules.ts
 * checks both). GraphQL has no input unions: `payload` carries the fields of both kinds, and
 * `payloadKind` says which apply (the other kind's fields are refused, as REST refuses them).
 */
@InputType({
  description: 'SINGLE: recipientId, amount, currency, reference?; BATCH: items (1 to 1,000, one currency)',
})
export class PayoutSchedulePayloadInput {
  @Field(() => ID, { nullable: true, description: 'SINGLE' }) recipientId?: string;
  @Field({ nullable: true, description: 'SINGLE: decimal amount of the wallet currency, e.g. "100.50"' })
  amount?: string;
  @Field({ nullable: true, description: 'SINGLE: the wallet debited' }) currency?: string;
  @Field({ nullable: true, description: 'SINGLE' }) reference?: string;
  @Field(() => [PayoutBatchItemInput], { nullable: true, description: 'BATCH: the payouts of each run' })
  items?: PayoutBatchItemInput[];
}

@InputType({ description: "A per-currency run cap on the sum of a run's destination amounts, never converted" })
export class PayoutScheduleLocalCapInput {
  @Field({ description: 'Destination currency, 3 to 8 characters' }) currency: string;
  @Field({ description: 'Decimal text, up to 8 decimals, e.g. "500000.00"' }) amount: string;
}

@InputType({
  description: 'POST /business/payouts/schedules: the payload is frozen, the PIN checked and every recipient screened',
})
export class CreatePayoutScheduleInput {
  @Field({ description: 'A label for the schedule, 1 to 200 characters' }) name: string;
  @Field(() => ScheduleCadence, { description: 'How often it runs, anchored at startAt' }) cadence: ScheduleCadence;
  @Field(() => Int, { nullable: true, description: 'MONTHLY only (required then): 1 to 28' }) dayOfMonth?:
    number | null;
  @Field({ description: 'The first run (MONTHLY: the first dayOfMonth on or after it, at its UTC time of day)' })
  startAt: Date;
  @Field(() => Date, { nullable: true, description: 'No run after it; not before the first run' }) endAt?: Date | null;
  @Field(() => SchedulePayloadKind, {
    description: "SINGLE or BATCH: which of payload's fields apply (the other kind's are refused)",
  })
  payloadKind: SchedulePayloadKind;
  @Field(() => PayoutSchedulePayloadInput, {
    description: 'What every run pays, checked as a payout made now and frozen',
  })
  payload: PayoutSchedulePayloadInput;
  @Field({ description: 'The most a run may pay, in US dollars at the mid rate of run time, e.g. "10000.00"' })
  maxRunAmountUsd: string;
  @Field(() => [PayoutScheduleLocalCapInput], {
    nullable: true,
    description: 'Caps per local currency besides the USD cap; null or absent: the USD cap only',
  })
  maxRunLocalCaps?: PayoutScheduleLocalCapInput[] | null;
  @Field({ description: 'The payout PIN, 6 digits' }) pin: string;
}

@InputType({
  description:
    'PATCH /business/payouts/schedules/{id}: absent fields stay; null clears endAt and maxRunLocalCaps (dayOfMonth is cleared by leaving MONTHLY)',
})
export class UpdatePayoutScheduleInput {
  @Field(() => ID, { description: 'The ACTIVE or PAUSED schedule to edit' }) id: string;
  @Field({ nullable: true, description: 'A new label, 1 to 200 characters' }) name?: string;
  @Field(() => ScheduleCadence, {
    nullable: true,
    description:
      'A new cadence, still anchored at startAt: nextRunAt moves to its first occurrence from now (leaving MONTHLY clears dayOfMonth)',
  })
  cadence?: ScheduleCadence;
  @Field(() => Int, {
    nullable: true,
    description:
      'MONTHLY only: 1 to 28 (required when switching to MONTHLY; omitted keeps the current day); null or omitted for other cadences',
  })
  dayOfMonth?: number | null;
  @Field(() => Date, { nullable: true, description: 'No run after it, not before nextRunAt; null clears it' })
  endAt?: Date | null;
  @Field({
    nullable: true,
    description: 'A new per-run cap in US dollars at the mid rate of run time, e.g. "10000.00" (up to 8 decimals)',
  })
  maxRunAmountUsd?: string;
  @Field(() => [PayoutScheduleLocalCapInput], {
    nullable: true,
    description: 'New per-currency run caps (at most 20, one per currency), replacing the old ones; null clears them',
  })
  maxRunLocalCaps?: PayoutScheduleLocalCapInput[] | null;
  @Field(() => SchedulePayloadKind, { nullable: true, description: 'With payload: its kind' })
  payloadKind?: SchedulePayloadKind;
  @Field(() => PayoutSchedulePayloadInput, {
    nullable: true,
    description: 'A new payload: needs pin (and payloadKind); authorizedAt is renewed',
  })
  payload?: PayoutSchedulePayloadInput;
  @Field(() => String, { nullable: true, description: 'Required with payload' }) pin?: string | null;
}

/** The fields given (GraphQL leaves an omitted input field undefined; an explicit null stays null). */
const present = (fields: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

/**
 * A schedule input as the wire shape reads it: omitted fields left out at every level (payload,
 * its items, the caps); dates stay Dates (the wire shape takes them as they are).
 */
export function scheduleBodyOf(
  input: CreatePayoutScheduleInput | Omit<UpdatePayoutScheduleInput, 'id'>,
): Record<string, unknown> {
  const body = present(input);
  if (input.payload)
    body.payload = {
      ...present(input.payload),
      ...(input.payload.items ? { items: input.payload.items.map(present) } : {}),
    };
  if (input.maxRunLocalCaps) body.maxRunLocalCaps = input.maxRunLocalCaps.map(present);
  return body;
}

export const PausePayoutScheduleInput = IdInput('PausePayoutSchedule', 'The ACTIVE schedule to pause');
export type PausePayoutScheduleInput = InstanceType<typeof PausePayoutScheduleInput>;
export const ResumePayoutScheduleInput = IdInput('ResumePayoutSchedule', 'The PAUSED schedule to resume');
export type ResumePayoutScheduleInput = InstanceType<typeof ResumePayoutScheduleInput>;
export const CancelPayoutScheduleInput = IdInput('CancelPayoutSchedule', 'The ACTIVE or PAUSED schedule to cancel');
export type CancelPayoutScheduleInput = InstanceType<typeof CancelPayoutScheduleInput>;
