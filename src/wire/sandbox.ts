/** Requests of the sandbox helpers shared by both faces. */
import { z } from 'zod';
import { AdvanceClockCommand } from '../domain/sandbox';
import { required } from './validation';

export const advanceClockBodySchema = z.object(
  {
    seconds: z
      .number({ error: required('a whole number of seconds, such as 86400') })
      .int('must be a whole number of seconds')
      .describe('How far to move the test clock forward (1 to 31,622,400: 366 days)'),
  },
  { error: 'must be a JSON object' },
);

export const toAdvanceClockCommand = (body: z.output<typeof advanceClockBodySchema>): AdvanceClockCommand => ({
  seconds: body.seconds,
});
