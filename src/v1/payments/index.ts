import type { Core } from '../../domain/core';
import type { V1App } from '../surface';
import { paymentRoutes } from './payments.routes';
export { operations } from './payments.operations';

/** The payments area's `/v1` routes (src/areas.ts). */
export function routes(app: V1App, core: Core) {
  paymentRoutes(app, core);
}
