import type { Core } from '../../domain/core';
import type { RouteAlias } from '../shared/aliases';
import type { RestApp } from '../surface';
import { identityRoutes } from './identity.routes';
export { operations } from './identity.operations';

/** The identity area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  identityRoutes(app, core);
}

/** Its paths the interface document writes without the `/api/v1` prefix (src/rest/shared/aliases.ts). */
export const aliases: readonly RouteAlias[] = [
  { method: 'PUT', path: '/business/config', canonical: '/api/v1/business/config' },
  { method: 'GET', path: '/business/config', canonical: '/api/v1/business/config' },
];
