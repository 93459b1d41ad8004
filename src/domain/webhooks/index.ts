import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { webhookJobs } from './webhooks.jobs';

/** The webhooks area: what the registries gather from it (src/areas.ts lists it). */
export const webhooksArea = defineArea<Core>({
  name: 'webhooks',
  entities: [WebhookDelivery, WebhookEndpoint],
  jobs: (core) => webhookJobs(core.webhooks),
});
