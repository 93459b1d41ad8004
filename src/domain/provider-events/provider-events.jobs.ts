import { AreaJobs } from '../shared/jobs';
import type { ProviderEventInbox } from './provider-event-inbox';
import { APPLY_PROVIDER_EVENT_TASK, type ApplyProviderEventJob } from './provider-events.job-names';

export function providerEventJobs(inbox: Pick<ProviderEventInbox, 'apply'>): AreaJobs {
  return {
    actor: 'provider-events',
    tasks: {
      /** Applies one stored provider event with its handler; a throw is retried by the queue (its error kept on the row). */
      [APPLY_PROVIDER_EVENT_TASK]: async (payload, log, system) => {
        const job = payload as ApplyProviderEventJob;
        const applied = await inbox.apply(system(), { id: job.id });
        if (applied === 'already-applied') log.info(`provider event ${job.id} was applied already`);
        else if (applied.ignored) log.info(`provider event ${job.id} ignored: ${applied.ignored}`);
      },
    },
  };
}
