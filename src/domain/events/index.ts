import { defineArea } from '../shared/area';
import { DomainEvent } from './event.entity';

/** The events area: what the registries gather from it (src/areas.ts lists it). */
export const eventsArea = defineArea({
  name: 'events',
  entities: [DomainEvent],
});
