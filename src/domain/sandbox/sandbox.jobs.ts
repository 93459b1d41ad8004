import { AreaJobs } from '../shared/jobs';
import type { ClockService } from './clock.service';
import { ADVANCE_SANDBOX_CLOCK_TASK, type AdvanceSliceJob } from './sandbox.job-names';

export function sandboxJobs(clock: Pick<ClockService, 'runSlice'>): AreaJobs {
  return {
    actor: 'sandbox-clock',
    tasks: {
      /** Fires the next slice of an advance's due work, then enqueues the one after it or completes the advance. */
      [ADVANCE_SANDBOX_CLOCK_TASK]: async (payload, _log, system) => {
        await clock.runSlice(system(), payload as AdvanceSliceJob);
      },
    },
  };
}
