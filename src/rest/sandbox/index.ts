import type { Core } from '../../domain/core';
import type { RestApp } from '../surface';
import { sandboxClockRoutes } from './clock.routes';
export { operations } from './sandbox.operations';

/** The sandbox area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  sandboxClockRoutes(app, core);
}
