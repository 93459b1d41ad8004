/** The inbox's background task (src/jobs/worker.ts runs it): applies one stored provider event. */
export const APPLY_PROVIDER_EVENT_TASK = 'apply_provider_event';

/**
 * Tries of a failing handler before the job gives up: graphile-worker waits e^n seconds after the
 * n-th failure (at most e^10, about 6 hours), so 20 tries span about three days, as long as Stripe
 * itself retries an unanswered event. A given-up event stays unapplied, with its last error.
 */
export const APPLY_PROVIDER_EVENT_MAX_ATTEMPTS = 20;

export interface ApplyProviderEventJob {
  id: string;
}
