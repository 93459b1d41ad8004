import type { Core } from '../../domain/core';
import type { RestApp } from '../surface';
import { tokenRoutes } from './tokens.routes';
export { operations } from './tokens.operations';

/** The tokens area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  tokenRoutes(app, core);
}
