import { RequestContext } from '../shared/context';
import { AreaJobs } from '../shared/jobs';

/**
 * The job that made one attempt of one delivery before the delivery pumps
 * (src/domain/webhooks/delivery-pump.ts) took over: kept so a job enqueued by an older version and
 * already running when it was upgraded still has its task. Nothing enqueues it any more.
 */
export const DELIVER_WEBHOOK_TASK = 'deliver_webhook';

/** The area's tasks for the worker (src/jobs/worker.ts gathers them). */
export function webhookJobs(webhooks: {
  attempt(ctx: RequestContext, deliveryId: string, reportError: (error: unknown) => void): Promise<unknown>;
}): AreaJobs {
  return {
    actor: 'webhooks',
    tasks: {
      /** One attempt of one webhook delivery; a failure makes the delivery due again itself. */
      [DELIVER_WEBHOOK_TASK]: async (payload, log, system) => {
        const { deliveryId } = payload as { deliveryId: string };
        await webhooks.attempt(system(), deliveryId, (error) =>
          log.error(
            `webhook delivery ${deliveryId}: the attempt failed inside Tessera: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
      },
    },
  };
}
