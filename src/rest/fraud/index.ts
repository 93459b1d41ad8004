import type { Core } from '../../domain/core';
import type { RestApp } from '../surface';
import { fraudRoutes } from './fraud.routes';
export { operations } from './fraud.operations';

/** The fraud area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  fraudRoutes(app, core);
}
