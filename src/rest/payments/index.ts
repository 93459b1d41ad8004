import type { Core } from '../../domain/core';
import type { RouteAlias } from '../shared/aliases';
import type { RestApp } from '../surface';
import { paymentRoutes } from './payments.routes';
export { operations } from './payments.operations';

/** The payments area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  paymentRoutes(app, core);
}

/** Its paths the interface document writes without the `/api/v1` prefix (src/rest/shared/aliases.ts). */
export const aliases: readonly RouteAlias[] = [
  { method: 'POST', path: '/business/payment/charge', canonical: '/api/v1/business/payment/charge' },
];
