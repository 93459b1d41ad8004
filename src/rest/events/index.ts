import type { Core } from '../../domain/core';
import type { RestApp } from '../surface';
import { eventRoutes } from './events.routes';
export { operations } from './events.operations';

/** The events area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  eventRoutes(app, core);
}
