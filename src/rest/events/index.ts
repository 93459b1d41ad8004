import type { Core } from '../../domain/core';
import type { RestApp } from '../surface';
import { eventRoutes } from './events.routes';

/** The events area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  eventRoutes(app, core);
}
