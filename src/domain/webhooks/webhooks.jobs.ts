import { RequestContext } from '../shared/context';
import { AreaJobs, enqueueJob } from '../shared/jobs';

/** The job that makes one attempt of one delivery. */
export const DELIVER_WEBHOOK_TASK = 'deliver_webhook';

/**
 * The job is keyed by the delivery, so a delivery has at most one pending attempt. Delivery
 * failures never throw (the retry schedule is ours); graphile-worker's own retries (max_attempts
 * 3) only cover a crashed or interrupted attempt, e.g. a worker killed mid-delivery whose lock
 * is released by releaseStalledJobs.
 */
export async function scheduleAttempt(tx: RequestContext, deliveryId: string, runAt: Date | null): Promise<void> {
  await enqueueJob(tx, DELIVER_WEBHOOK_TASK, { deliveryId }, { runAt, jobKey: deliveryId, maxAttempts: 3 });
}

/**
 * scheduleAttempt as an SQL expression, for a statement that writes deliveries and their first
 * attempts at once (WebhookService.recordWithDeliveries): `deliveryId` and `runAt` are SQL
 * expressions. The payload is the JSON text scheduleAttempt sends.
 */
export const scheduleAttemptSql = (deliveryId: string, runAt: string) =>
  `graphile_worker.add_job('${DELIVER_WEBHOOK_TASK}', ('{"deliveryId":"' || ${deliveryId} || '"}')::json, run_at := ${runAt}, job_key := ${deliveryId}::text, max_attempts := 3)`;

/** The area's tasks for the worker (src/jobs/worker.ts gathers them). */
export function webhookJobs(webhooks: { attempt(ctx: RequestContext, deliveryId: string, reportError: (error: unknown) => void): Promise<unknown> }): AreaJobs {
  return {
    actor: 'webhooks',
    tasks: {
      /** One attempt of one webhook delivery; a failure schedules the next attempt itself. */
      [DELIVER_WEBHOOK_TASK]: async (payload, log, system) => {
        const { deliveryId } = payload as { deliveryId: string };
        await webhooks.attempt(system(), deliveryId, (error) =>
          log.error(`webhook delivery ${deliveryId}: the attempt failed inside Tessera: ${error instanceof Error ? error.message : String(error)}`));
      },
    },
  };
}
