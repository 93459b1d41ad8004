import { JobRequest } from '../shared/jobs';

/** The sandbox area's background task (src/jobs/worker.ts runs it): one slice of a test clock's advance. */
export const ADVANCE_SANDBOX_CLOCK_TASK = 'advance_sandbox_clock';

/**
 * Slices wait behind every ordinary job that is due (a lower priority: graphile-worker takes the
 * lowest number first), so a payout's dispatch or settlement is never queued behind an advance.
 */
export const ADVANCE_SLICE_PRIORITY = 10;

export interface AdvanceSliceJob {
  advanceId: string;
  businessId: string;
}

/**
 * A slice of an advance, in its business's own job queue (`sandbox_clock:<businessId>`): one
 * slice of a business runs at a time, in order, while other businesses' slices and every other job
 * run beside it. Keyed by the advance: the next slice, enqueued by the running one, replaces any
 * other pending one.
 */
export const advanceSliceJob = (job: AdvanceSliceJob): JobRequest => ({
  task: ADVANCE_SANDBOX_CLOCK_TASK,
  payload: { advanceId: job.advanceId, businessId: job.businessId },
  options: {
    jobKey: `${ADVANCE_SANDBOX_CLOCK_TASK}:${job.advanceId}`,
    queueName: `sandbox_clock:${job.businessId}`,
    priority: ADVANCE_SLICE_PRIORITY,
    maxAttempts: 25,
  },
});
