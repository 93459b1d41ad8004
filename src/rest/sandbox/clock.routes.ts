import { ErrorCode } from '../../domain/shared/errors';
import { z } from 'zod';
import { Core } from '../../domain/core';
import { ClockAdvanceStatus, ClockState, SandboxClockAdvance } from '../../domain/sandbox';
import { authenticated } from '../../http/request-context';
import { advanceClockBodySchema, toAdvanceClockCommand } from '../../wire/sandbox';
import { success } from '../shared/envelope';
import { responses, timestampSchema } from '../shared/schemas';
import type { RestApp } from '../surface';

const CLOCK = '/api/v1/business/sandbox/clock';

const advanceSchema = z
  .object({
    id: z.string(),
    seconds: z.number().int().describe('How far this advance moved the clock'),
    status: z
      .enum(ClockAdvanceStatus)
      .describe('running while its due work is being fired in the background, then completed'),
    runsDue: z.number().int().describe('Scheduled-payout runs that fell due, counted before the clock moved'),
    payoutsDue: z.number().int().describe('Payouts those runs would create, each run its payload size'),
    runsFired: z
      .number()
      .int()
      .describe('Runs fired so far; equals runsDue when completed, unless schedules changed meanwhile'),
    untilAt: timestampSchema.describe("The business's clock time the advance fires the due work up to"),
    createdAt: timestampSchema,
    completedAt: timestampSchema.nullable(),
  })
  .meta({ id: 'SandboxClockAdvance' });

export const clockSchema = z
  .object({
    now: timestampSchema.describe("The business's test-mode time: the wall clock plus the offset"),
    offsetSeconds: z.number().int().describe('How far the test clock runs ahead of the wall clock'),
    advance: advanceSchema
      .nullable()
      .describe("The business's running advance, or its last one (null before the first)"),
  })
  .meta({ id: 'SandboxClock' });

const advanceJson = (advance: SandboxClockAdvance): z.input<typeof advanceSchema> => ({
  id: advance.id,
  seconds: advance.seconds,
  status: advance.status,
  runsDue: advance.runsDue,
  payoutsDue: advance.payoutsDue,
  runsFired: advance.runsFired,
  untilAt: advance.untilAt.toISOString(),
  createdAt: advance.createdAt.toISOString(),
  completedAt: advance.completedAt?.toISOString() ?? null,
});

const clockJson = (clock: ClockState): z.input<typeof clockSchema> => ({
  now: clock.now.toISOString(),
  offsetSeconds: clock.offsetSeconds,
  advance: clock.advance && advanceJson(clock.advance),
});

/** The test clock (design section 8): read it and its advance's progress, or move it forward (its due work fires in the background). Test credentials only. */
export function sandboxClockRoutes(app: RestApp, core: Core) {
  const { sandboxClock } = core;

  app.get(CLOCK, { schema: { response: responses({ 200: clockSchema }, [ErrorCode.SANDBOX_ONLY]) } }, async (request) =>
    success(clockJson(await sandboxClock.state(authenticated(request)))),
  );

  app.post(
    `${CLOCK}/advance`,
    { schema: { body: advanceClockBodySchema, response: responses({ 200: clockSchema }, [ErrorCode.SANDBOX_ONLY]) } },
    async (request) =>
      success(clockJson(await sandboxClock.advance(authenticated(request), toAdvanceClockCommand(request.body)))),
  );
}
