import { Column, Entity, Index } from 'typeorm';
import { MutableTenantEntity, TenantEntity } from '../shared/tenancy';
import { ScheduleCadence } from './cadence';
import type { LocalCap } from './schedule-caps';

export { ScheduleCadence };

/** What a schedule pays on each run: one payout, or a batch of them (design section 8). */
export enum SchedulePayloadKind {
  SINGLE = 'SINGLE',
  BATCH = 'BATCH',
}

/** The documented Schedule status (interface document, Schedule status). */
export enum ScheduleStatus {
  ACTIVE = 'ACTIVE',
  PAUSED = 'PAUSED',
  COMPLETED = 'COMPLETED',
  CANCELLED = 'CANCELLED',
}

export enum ScheduleRunStatus {
  SUCCEEDED = 'SUCCEEDED',
  FAILED = 'FAILED',
}

/** Why a run failed (the run's `reason`). */
export enum ScheduleRunFailure {
  CAP_EXCEEDED = 'CAP_EXCEEDED',
  INSUFFICIENT_FUNDS = 'INSUFFICIENT_FUNDS',
  /** A recipient was archived since the schedule was authorised, or the wallet is gone. */
  RECIPIENT_NOT_PAYABLE = 'RECIPIENT_NOT_PAYABLE',
  /** The payout could not be priced or checked any more (an amount too small at today's rate, …). */
  PAYOUT_REFUSED = 'PAYOUT_REFUSED',
}

/** One payout of the frozen payload: the amount in minor units, as decimal text (jsonb holds no bigint). */
export interface FrozenPayout {
  recipientId: string;
  amountMinor: string;
  currency: string;
  reference: string | null;
}

/**
 * Payouts to run on a cadence, frozen and authorised (PIN and screening) at creation. `nextRunAt`
 * is the occurrence the runner fires next; the run row of each occurrence is unique, so it fires once.
 */
@Entity('payout_schedules')
@Index('ix_payout_schedules_business_mode_created', ['businessId', 'livemode', 'createdAt'])
@Index('ix_payout_schedules_due', ['nextRunAt'], { where: `"status" = 'ACTIVE'` })
export class PayoutSchedule extends MutableTenantEntity {
  @Column('text') name: string;
  @Column({ type: 'enum', enum: ScheduleCadence, enumName: 'payout_schedule_cadence' }) cadence: ScheduleCadence;
  @Column('integer', { nullable: true }) dayOfMonth: number | null;
  @Column({ type: 'enum', enum: SchedulePayloadKind, enumName: 'payout_schedule_payload_kind' })
  payloadKind: SchedulePayloadKind;
  @Column({ type: 'enum', enum: ScheduleStatus, enumName: 'payout_schedule_status', default: ScheduleStatus.ACTIVE })
  status: ScheduleStatus;
  @Column('jsonb') payload: FrozenPayout[];
  @Column('integer') itemCount: number;
  /** The `startAt` given: the anchor of the cadence's series (weekday, time of day). */
  @Column('timestamptz') startAt: Date;
  @Column('timestamptz') nextRunAt: Date;
  @Column('timestamptz', { nullable: true }) lastRunAt: Date | null;
  @Column('timestamptz', { nullable: true }) endAt: Date | null;
  @Column('integer', { default: 0 }) runCount: number;
  /** Decimal text as given (exact; compared with bigint arithmetic only). */
  @Column('text') maxRunAmountUsd: string;
  @Column('jsonb', { nullable: true }) maxRunLocalCaps: LocalCap[] | null;
  @Column('timestamptz') authorizedAt: Date;
}

/** One fired occurrence of a schedule: unique on (schedule, due time), written with the run's payouts. */
@Entity('payout_schedule_runs')
@Index('uq_payout_schedule_runs_occurrence', ['scheduleId', 'dueAt'], { unique: true })
export class PayoutScheduleRun extends TenantEntity {
  @Column('uuid') scheduleId: string;
  /** The occurrence this run stands for (the documented `runAt`). */
  @Column('timestamptz') dueAt: Date;
  /** When a worker (or a clock advance) fired it, on the wall clock. */
  @Column('timestamptz') firedAt: Date;
  @Column({ type: 'enum', enum: ScheduleRunStatus, enumName: 'payout_schedule_run_status' }) status: ScheduleRunStatus;
  @Column('text', { nullable: true }) reason: string | null;
  @Column('uuid', { array: true }) payoutIds: string[];
  @Column('uuid', { nullable: true }) batchId: string | null;
}
