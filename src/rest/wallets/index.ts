import type { Core } from '../../domain/core';
import type { RestApp } from '../surface';
import { walletRoutes } from './wallets.routes';
export { operations } from './wallets.operations';

/** The wallets area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  walletRoutes(app, core);
}
