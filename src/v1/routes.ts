import { AREAS } from '../areas';
import { Core } from '../domain/core';
import type { OperationsByTag } from '../http/openapi';
import type { V1App } from './surface';

/** Every route of `/v1`, area by area (src/areas.ts; paths relative to the `/v1` prefix). */
export function registerV1Routes(app: V1App, core: Core) {
  for (const area of AREAS) area.v1?.().routes(app, core);
}

/**
 * The operations of every `/v1` route by tag, area by area (src/areas.ts): the `/v1` OpenAPI document
 * names and tags its operations from these.
 */
export const v1Operations = (): OperationsByTag[] => AREAS.flatMap((area) => (area.v1 ? [area.v1().operations] : []));
