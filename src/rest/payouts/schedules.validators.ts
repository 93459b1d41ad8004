import { z } from 'zod';
import {
  ScheduleCadence,
  ScheduleFilters,
  ScheduleObject,
  SchedulePayloadKind,
  ScheduleRunObject,
  ScheduleRunStatus,
  ScheduleStatus,
} from '../../domain/payouts';
import { enumFilter, skipTakeParams } from '../../wire/validation';
import { currencyCodeSchema, timestampSchema } from '../shared/schemas';

// ---------------------------------------------------------------- requests

export const schedulesQuerySchema = z.object({
  ...skipTakeParams,
  status: enumFilter(ScheduleStatus).optional(),
});

export const toScheduleFilters = (query: z.output<typeof schedulesQuerySchema>): ScheduleFilters => ({
  status: query.status,
});

// ---------------------------------------------------------------- responses

/** The documented Schedule (interface document, Schedule (scheduled payout)), field for field. */
export const scheduleSchema = z
  .object({
    id: z.string(),
    businessId: z.string(),
    name: z.string().describe('Human label'),
    cadence: z.enum(ScheduleCadence),
    dayOfMonth: z.number().int().nullable().describe('Day of month 1 to 28 for MONTHLY; null for other cadences'),
    payloadKind: z.enum(SchedulePayloadKind),
    status: z.enum(ScheduleStatus),
    itemCount: z.number().int().describe('Number of payout specs in the frozen payload'),
    nextRunAt: timestampSchema.describe(
      'When the next run fires (COMPLETED and CANCELLED: as it was when the schedule ended)',
    ),
    lastRunAt: timestampSchema.nullable().describe('When the last run fired (its occurrence)'),
    endAt: timestampSchema.nullable().describe('Optional natural end'),
    runCount: z.number().int().describe('How many times the schedule has run (succeeded or failed)'),
    maxRunAmountUsd: z.string().describe('Per-run USD cap, as given'),
    maxRunLocalCaps: z
      .array(
        z.object({
          currency: currencyCodeSchema.describe('Destination currency the cap applies to, lower case'),
          amount: z
            .string()
            .describe('Maximum total destination amount per run in that currency (up to 8 decimals), as given'),
        }),
      )
      .nullable()
      .describe('Per-currency run caps, never converted; null means USD-only capping'),
    authorizedAt: timestampSchema.describe('When PIN and screening were completed (renewed by a new payload)'),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'Schedule' });

/** The read shape is the domain's event object, field for field (so REST and webhooks cannot drift). */
export const scheduleJson = (object: ScheduleObject): z.input<typeof scheduleSchema> => object;

export const scheduleRunSchema = z
  .object({
    id: z.string(),
    runAt: timestampSchema.describe('The occurrence this run stands for'),
    status: z.enum(ScheduleRunStatus),
    reason: z
      .string()
      .nullable()
      .describe(
        'FAILED: CAP_EXCEEDED, INSUFFICIENT_FUNDS, RECIPIENT_NOT_PAYABLE or PAYOUT_REFUSED; null when SUCCEEDED',
      ),
    payoutIds: z.array(z.string()).describe('The payouts the run created (none when it failed)'),
    batchId: z.string().nullable().describe('BATCH schedules: the batch the run created'),
  })
  .meta({ id: 'ScheduleRun' });

export const scheduleRunJson = (object: ScheduleRunObject): z.input<typeof scheduleRunSchema> => object;
