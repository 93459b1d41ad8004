import type { Core } from '../../domain/core';
import type { RestApp } from '../surface';
import { paymentLinkRoutes } from './payment-links.routes';
export { operations } from './payment-links.operations';

/** The payment-links area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  paymentLinkRoutes(app, core);
}
