import type { Core } from '../../domain/core';
import type { RouteAlias } from '../shared/aliases';
import type { RestApp } from '../surface';
import { collectionRoutes } from './collections.routes';
export { operations } from './collections.operations';

/** The collections area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  collectionRoutes(app, core);
}

/** Its paths the interface document writes without the `/api/v1` prefix (src/rest/shared/aliases.ts). */
export const aliases: readonly RouteAlias[] = [
  { method: 'GET', path: '/business/collections/:id', canonical: '/api/v1/business/collections/:id' },
];
