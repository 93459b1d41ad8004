import type { Core } from '../../domain/core';
import type { RestApp } from '../surface';
import { recurringGiftRoutes } from './recurring-gifts.routes';
export { operations } from './recurring-gifts.operations';

/** The recurring-gifts area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  recurringGiftRoutes(app, core);
}
