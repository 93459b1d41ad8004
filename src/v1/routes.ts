import { AREAS } from '../areas';
import { Core } from '../domain/core';
import type { V1App } from './surface';

/** Every route of `/v1`, area by area (src/areas.ts; paths relative to the `/v1` prefix). */
export function registerV1Routes(app: V1App, core: Core) {
  for (const area of AREAS) area.v1?.().routes(app, core);
}
