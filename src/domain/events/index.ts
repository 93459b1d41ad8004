import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { DomainEvent } from './event.entity';
import { EventService } from './event.service';
import { EventLogService } from './event-log.service';

declare module '../core' {
  interface Core {
    events: EventService;
    eventLog: EventLogService;
  }
}

/** The events area: what the registries gather from it (src/areas.ts lists it). */
export const eventsArea = defineArea<Core>({
  name: 'events',
  entities: [DomainEvent],
  services: {
    events: (core) => new EventService(core.pubSub, core.bus),
    eventLog: () => new EventLogService(),
  },
});
