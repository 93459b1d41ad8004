import { z } from 'zod';
import { Core } from '../../domain/core';
import { ClockState } from '../../domain/sandbox/clock.service';
import { authenticated } from '../../http/request-context';
import { advanceClockBodySchema, toAdvanceClockCommand } from '../../wire/sandbox';
import { success } from '../shared/envelope';
import { responses, timestampSchema } from '../shared/schemas';
import type { RestApp } from '../surface';

const CLOCK = '/api/v1/business/sandbox/clock';

export const clockSchema = z.object({
  now: timestampSchema.describe("The business's test-mode time: the wall clock plus the offset"),
  offsetSeconds: z.number().int().describe('How far the test clock runs ahead of the wall clock'),
}).meta({ id: 'SandboxClock' });

const clockJson = (clock: ClockState): z.input<typeof clockSchema> => ({ now: clock.now.toISOString(), offsetSeconds: clock.offsetSeconds });

/** The test clock (design section 8): read it, or move it forward and fire what falls due. Test credentials only. */
export function sandboxClockRoutes(app: RestApp, core: Core) {
  const { sandboxClock } = core;

  app.get(CLOCK, { schema: { response: responses({ 200: clockSchema }) } }, async (request) =>
    success(clockJson(await sandboxClock.state(authenticated(request)))));

  app.post(`${CLOCK}/advance`, { schema: { body: advanceClockBodySchema, response: responses({ 200: clockSchema }) } }, async (request) =>
    success(clockJson(await sandboxClock.advance(authenticated(request), toAdvanceClockCommand(request.body)))));
}
