import type { Core } from '../../domain/core';
import type { RestApp } from '../surface';
import { treasuryRoutes } from './treasury.routes';
export { operations } from './treasury.operations';

/** The treasury area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  treasuryRoutes(app, core);
}
