import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import {
  PayoutSchedule as PayoutScheduleRow,
  PayoutScheduleRun as PayoutScheduleRunRow,
  ScheduleCadence,
  SchedulePayloadKind,
  ScheduleRunStatus,
  ScheduleStatus,
} from '../../domain/payouts';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';
import { changedFieldsOf } from './payout.types';

registerEnumType(ScheduleCadence, {
  name: 'PayoutScheduleCadence',
  description:
    'ONCE (at startAt), WEEKLY and BIWEEKLY (same weekday and UTC time as startAt), MONTHLY (dayOfMonth 1 to 28, at the UTC time of startAt)',
  valuesConfig: {
    ONCE: { description: 'One run, at startAt; then COMPLETED' },
    WEEKLY: { description: 'Every 7 days from startAt, at its weekday and UTC time of day' },
    BIWEEKLY: { description: 'Every 14 days from startAt, at its weekday and UTC time of day' },
    MONTHLY: {
      description:
        "On day dayOfMonth (1 to 28) of every month at startAt's UTC time of day, from the first such instant on or after startAt",
    },
  },
});
registerEnumType(SchedulePayloadKind, {
  name: 'PayoutSchedulePayloadKind',
  description: 'Each run pays one payout (SINGLE) or a batch (BATCH)',
  valuesConfig: {
    SINGLE: { description: 'Each run creates one payout to one recipient' },
    BATCH: { description: 'Each run creates a payout batch of 1 to 1,000 payouts in one currency' },
  },
});
registerEnumType(ScheduleStatus, {
  name: 'PayoutScheduleStatus',
  description:
    'ACTIVE <-> PAUSED; ACTIVE or PAUSED -> CANCELLED; COMPLETED after its last run (ONCE, or the next run would fall after endAt)',
  valuesConfig: {
    ACTIVE: { description: 'Runs fire at nextRunAt; it can be edited, paused or cancelled' },
    PAUSED: {
      description: 'No run fires; resume skips the occurrences missed meanwhile; it can be edited or cancelled',
    },
    COMPLETED: {
      description:
        'Final: its last run fired (ONCE, or the next occurrence would fall after endAt), or it was resumed with nothing left to run',
    },
    CANCELLED: { description: 'Final: cancelled while ACTIVE or PAUSED; no run fires again' },
  },
});
registerEnumType(ScheduleRunStatus, {
  name: 'PayoutScheduleRunStatus',
  description: 'FAILED runs create no payout (reason says why)',
  valuesConfig: {
    SUCCEEDED: { description: 'The run created its payouts (payoutIds; batchId for a BATCH schedule)' },
    FAILED: {
      description: 'The run created no payout (reason says why); the schedule still moved on to its next occurrence',
    },
  },
});

@ObjectType({
  description: "A per-currency run cap: the sum of a run's destination amounts in that currency, never converted",
})
export class PayoutScheduleLocalCap {
  @Field({ description: 'The destination currency the cap applies to' }) currency: string;
  @Field({ description: 'Decimal text as given (up to 8 decimals)' }) amount: string;
}

/**
 * The documented Schedule (interface document, Schedule (scheduled payout)): the fields, names and
 * types of REST's GET /payouts/schedules/{id}, timestamps as ISO 8601 strings, amounts as strings.
 */
@ObjectType({
  description: 'Payouts run on a cadence, frozen and authorised (PIN, screening) at creation, within per-run caps',
  implements: Node,
})
export class PayoutSchedule extends Node {
  @Field(() => ID, { description: 'The business the schedule belongs to' }) businessId: string;
  @Field({ description: 'Human label' }) name: string;
  @Field(() => ScheduleCadence, { description: 'How often it runs, anchored at the startAt it was created with' })
  cadence: ScheduleCadence;
  @Field(() => Int, { nullable: true, description: 'Day of month 1 to 28 for MONTHLY; null for other cadences' })
  dayOfMonth: number | null;
  @Field(() => SchedulePayloadKind, { description: 'Whether each run pays one payout (SINGLE) or a batch (BATCH)' })
  payloadKind: SchedulePayloadKind;
  @Field(() => ScheduleStatus, { description: 'Where the schedule is in its life (see PayoutScheduleStatus)' })
  status: ScheduleStatus;
  @Field(() => Int, { description: 'Number of payout specs in the frozen payload' }) itemCount: number;
  @Field({ description: 'When the next run fires (COMPLETED and CANCELLED: as it was when the schedule ended)' })
  nextRunAt: Date;
  @Field(() => Date, { nullable: true, description: 'When the last run fired (its occurrence)' })
  lastRunAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'Optional natural end' }) endAt: Date | null;
  @Field(() => Int, { description: 'How many times the schedule has run (succeeded or failed)' }) runCount: number;
  @Field({ description: 'Per-run USD cap, decimal text as given' }) maxRunAmountUsd: string;
  @Field(() => [PayoutScheduleLocalCap], {
    nullable: true,
    description: 'Per-currency run caps; null means USD-only capping',
  })
  maxRunLocalCaps: PayoutScheduleLocalCap[] | null;
  @Field({ description: 'When PIN and screening were completed (renewed by a new payload)' }) authorizedAt: Date;
  @Field({ description: 'When the schedule was created (ISO 8601, UTC)' }) createdAt: Date;
  @Field({ description: 'When the schedule last changed: an edit, a status change or a run (ISO 8601, UTC)' })
  updatedAt: Date;

  static from(row: PayoutScheduleRow): PayoutSchedule {
    return Object.assign(new PayoutSchedule(), {
      id: row.id,
      businessId: row.businessId,
      name: row.name,
      cadence: row.cadence,
      dayOfMonth: row.dayOfMonth,
      payloadKind: row.payloadKind,
      status: row.status,
      itemCount: row.itemCount,
      nextRunAt: row.nextRunAt,
      lastRunAt: row.lastRunAt,
      endAt: row.endAt,
      runCount: row.runCount,
      maxRunAmountUsd: row.maxRunAmountUsd,
      maxRunLocalCaps:
        row.maxRunLocalCaps?.map((cap) =>
          Object.assign(new PayoutScheduleLocalCap(), { currency: cap.currency, amount: cap.amount }),
        ) ?? null,
      authorizedAt: row.authorizedAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: 'A page of payout schedules, newest first' })
export class PayoutScheduleConnection extends Connection(PayoutSchedule, 'PayoutSchedule') {}

@ObjectType({
  description: 'One fired occurrence of a schedule (the shape of REST GET /payouts/schedules/{id}/runs)',
  implements: Node,
})
export class PayoutScheduleRun extends Node {
  @Field({ description: 'The occurrence this run stands for' }) runAt: Date;
  @Field(() => ScheduleRunStatus, { description: 'Whether the run created its payouts (SUCCEEDED) or none (FAILED)' })
  status: ScheduleRunStatus;
  @Field(() => String, {
    nullable: true,
    description:
      'FAILED: CAP_EXCEEDED, INSUFFICIENT_FUNDS, RECIPIENT_NOT_PAYABLE or PAYOUT_REFUSED; null when SUCCEEDED',
  })
  reason: string | null;
  @Field(() => [ID], { description: 'The payouts the run created (none when it failed)' }) payoutIds: string[];
  @Field(() => ID, { nullable: true, description: 'BATCH schedules: the batch the run created' }) batchId:
    string | null;

  static from(row: PayoutScheduleRunRow): PayoutScheduleRun {
    return Object.assign(new PayoutScheduleRun(), {
      id: row.id,
      runAt: row.dueAt,
      status: row.status,
      reason: row.reason,
      payoutIds: [...row.payoutIds],
      batchId: row.batchId,
    });
  }
}

@ObjectType({ description: "A page of a schedule's runs, the latest occurrence first" })
export class PayoutScheduleRunConnection extends Connection(PayoutScheduleRun, 'PayoutScheduleRun') {}

@ObjectType({
  description:
    'One change of a schedule: the schedule as it now reads, its status before the change and the fields the change set',
})
export class PayoutScheduleUpdate {
  @Field(() => PayoutSchedule, {
    description: 'The schedule as read when this message is sent (a quicker later change may already show)',
  })
  payoutSchedule: PayoutSchedule;
  @Field(() => ScheduleStatus, {
    nullable: true,
    description:
      'The status before this change (the same as payoutSchedule.status when the status did not change); null when the change created the schedule',
  })
  previousStatus: ScheduleStatus | null;
  @Field(() => [String], {
    description:
      'The fields of payoutSchedule this change set (every field when it created the schedule; updatedAt is not listed), e.g. ["status"], ["runCount", "lastRunAt", "nextRunAt"]',
  })
  changedFields: string[];

  static of(
    payoutSchedule: PayoutSchedule,
    change: { previousStatus: ScheduleStatus | null; changedFields: readonly string[] | null },
  ): PayoutScheduleUpdate {
    return Object.assign(new PayoutScheduleUpdate(), {
      payoutSchedule,
      previousStatus: change.previousStatus,
      changedFields: changedFieldsOf(payoutSchedule, change.changedFields),
    });
  }
}
