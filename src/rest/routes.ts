import { AREAS } from '../areas';
import { Core } from '../domain/core';
import type { OperationsByTag } from '../http/openapi';
import { registerAliases } from './shared/aliases';
import type { RestApp } from './surface';

/** Every REST route of the compatibility layer, area by area (src/areas.ts), and the documented unprefixed aliases of some. */
export function registerRestRoutes(app: RestApp, core: Core) {
  const faces = AREAS.flatMap((area) => area.rest?.() ?? []);
  registerAliases(
    app,
    faces.flatMap((face) => face.aliases ?? []),
  );
  for (const face of faces) face.routes(app, core);
}

/**
 * The operations of every REST route by tag, area by area (src/areas.ts): the OpenAPI document
 * names and tags its operations from these.
 */
export const restOperations = (): OperationsByTag[] =>
  AREAS.flatMap((area) => (area.rest ? [area.rest().operations] : []));
