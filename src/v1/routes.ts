import { Core } from '../domain/core';
import { paymentRoutes } from './payments/payments.routes';
import { rateRoutes } from './rates/rates.routes';
import { transferRoutes } from './transfers/transfers.routes';
import type { V1App } from './surface';

/** Every route of `/v1`, by family (paths relative to the `/v1` prefix). */
export function registerV1Routes(app: V1App, core: Core) {
  paymentRoutes(app, core);
  rateRoutes(app, core);
  transferRoutes(app, core);
}
