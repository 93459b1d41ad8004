import type { Core } from '../../domain/core';
import type { RouteAlias } from '../shared/aliases';
import type { RestApp } from '../surface';
import { checkoutSessionRoutes } from './checkout-sessions.routes';
export { operations } from './checkout.operations';

/** The checkout area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  checkoutSessionRoutes(app, core);
}

/** Its paths the interface document writes without the `/api/v1` prefix (src/rest/shared/aliases.ts). */
export const aliases: readonly RouteAlias[] = [
  { method: 'POST', path: '/business/checkout/session', canonical: '/api/v1/business/checkout/session' },
  { method: 'POST', path: '/business/payment/session', canonical: '/api/v1/business/payment/session' },
];
