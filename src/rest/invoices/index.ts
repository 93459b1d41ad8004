import type { Core } from '../../domain/core';
import type { RestApp } from '../surface';
import { invoiceRoutes } from './invoices.routes';
export { operations } from './invoices.operations';

/** The invoices area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  invoiceRoutes(app, core);
}
