import type { Core } from '../../domain/core';
import type { RouteAlias } from '../shared/aliases';
import type { RestApp } from '../surface';
import { scheduleRoutes } from './schedules.routes';
import { payoutRoutes } from './payouts.routes';
import { payoutPinRoutes } from './payout-pin.routes';
export { operations } from './payouts.operations';

/** The payouts area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  scheduleRoutes(app, core);
  payoutRoutes(app, core);
  payoutPinRoutes(app, core);
}

/** Its paths the interface document writes without the `/api/v1` prefix (src/rest/shared/aliases.ts). */
export const aliases: readonly RouteAlias[] = [
  { method: 'GET', path: '/v1/business/payouts/:id', canonical: '/api/v1/business/payouts/:id' },
];
