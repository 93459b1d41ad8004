import { ScheduleCadence } from './cadence';
import type { LocalCap } from './schedule-caps';
import { SchedulePayloadKind, ScheduleStatus } from './schedule.entities';
import { BatchItem } from './payout.commands';

/** The payouts a schedule makes on each run: one (SINGLE) or a batch (BATCH), amounts in minor units. */
export type SchedulePayload =
  { kind: SchedulePayloadKind.SINGLE; payout: BatchItem } | { kind: SchedulePayloadKind.BATCH; items: BatchItem[] };

export interface CreateScheduleCommand {
  name: string;
  cadence: ScheduleCadence;
  dayOfMonth: number | null;
  startAt: Date;
  endAt: Date | null;
  payload: SchedulePayload;
  /** Decimal text (up to 8 decimals), kept as given. */
  maxRunAmountUsd: string;
  maxRunLocalCaps: LocalCap[] | null;
  pin: string;
}

/** Only the fields present change; `undefined` leaves a field as it is, `null` clears a nullable one. */
export interface UpdateScheduleCommand {
  scheduleId: string;
  name?: string;
  cadence?: ScheduleCadence;
  dayOfMonth?: number | null;
  endAt?: Date | null;
  maxRunAmountUsd?: string;
  maxRunLocalCaps?: LocalCap[] | null;
  /** A new payload is authorised again: it needs `pin`, and its recipients are screened again. */
  payload?: SchedulePayload;
  pin?: string | null;
}

export interface ScheduleFilters {
  status?: ScheduleStatus;
}

/** A page of runs for each of several schedules (`PayoutSchedule.runs(first, after)` for a whole page of schedules). */
export interface ScheduleRunsQuery {
  pages: Array<{ scheduleId: string; after: string | null }>;
  first: number | null;
}
