import type { Core } from '../../domain/core';
import type { RestApp } from '../surface';
import { webhookEndpointRoutes } from './webhook-endpoints.routes';
import { treasuryWebhookEndpointRoutes } from './treasury-webhook-endpoints.routes';
export { operations } from './webhooks.operations';

/** The webhooks area's REST routes (src/areas.ts). */
export function routes(app: RestApp, core: Core) {
  webhookEndpointRoutes(app, core);
  treasuryWebhookEndpointRoutes(app, core);
}
