import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { ProviderEvent } from './provider-event.entity';
import { ProviderEventInbox } from './provider-event-inbox';
import { providerEventJobs } from './provider-events.jobs';

declare module '../core' {
  interface Core {
    providerEvents: ProviderEventInbox;
  }
}

/**
 * The providers' webhooks inbox: the events providers send (`POST /providers/<provider>/webhooks`,
 * src/server/provider-webhooks.ts), each stored once and applied once by a job with the handler its
 * provider declares (src/providers/webhooks/port.ts). Last in src/areas.ts: its handlers call the
 * services of any area, at run time, through `core`.
 */
export const providerEventsArea = defineArea<Core>({
  name: 'provider-events',
  entities: [ProviderEvent],
  services: {
    providerEvents: (core) => new ProviderEventInbox(core.providers, () => core),
  },
  jobs: (core) => providerEventJobs(core.providerEvents),
});
