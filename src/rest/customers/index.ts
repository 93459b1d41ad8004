import type { Core } from '../../domain/core';
import type { RestApp } from '../surface';
import { customerRoutes } from './customers.routes';
export { operations } from './customers.operations';

/** The customers area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  customerRoutes(app, core);
}
