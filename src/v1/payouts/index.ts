import type { Core } from '../../domain/core';
import type { V1App } from '../surface';
import { rateRoutes } from './rates.routes';
import { transferRoutes } from './transfers.routes';
export { operations } from './payouts.operations';

/** The payouts area's `/v1` routes (src/areas.ts): the rates a transfer gets, and transfers. */
export function routes(app: V1App, core: Core) {
  rateRoutes(app, core);
  transferRoutes(app, core);
}
