import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { webhookJobs } from './webhooks.jobs';
import { WebhookService } from './webhook.service';
import { WebhookEndpointService } from './webhook-endpoint.service';
import { TreasuryWebhookEndpointService } from './treasury-webhook-endpoint.service';
import { DeliveryLogService } from './delivery-log.service';
import { V1EventService } from './v1-event.service';
import { V1SettingsService } from './v1-settings.service';
import { webhooksSubscriptions } from './webhooks.subscriptions';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export { DeliveryPump } from './delivery-pump';
export {
  API_VERSION_MESSAGE,
  GRACE_PERIOD_MESSAGE,
  MAX_GRACE_PERIOD_HOURS,
  TREASURY_WEBHOOK_API_VERSIONS,
} from './treasury-webhook-endpoint.service';
export type { IssuedSigningSecret } from './treasury-webhook-endpoint.service';
export { V1EventService } from './v1-event.service';
export { V1Events } from './v1.events';
export type { V1EventName } from './v1.events';
export { WebhookDelivery, WebhookDeliveryStatus } from './webhook-delivery.entity';
export { WebhookEndpointRegistry } from './webhook-endpoint-registry';
export { ALL_EVENTS, WebhookEndpoint, WebhookEndpointStatus } from './webhook-endpoint.entity';
export type { DeliveryFilters } from './webhooks.commands';
export { WebhookTopic } from './webhooks.topics';
export type { WebhookDeliveryChange } from './webhooks.topics';

declare module '../core' {
  interface Core {
    webhooks: WebhookService;
    webhookEndpoints: WebhookEndpointService;
    treasuryWebhookEndpoints: TreasuryWebhookEndpointService;
    deliveryLog: DeliveryLogService;
    /** The emitter of `/v1` events (signed with the `/v1` key, to a resource's own URL and the business's webhook URL). */
    v1Events: V1EventService;
    v1Settings: V1SettingsService;
  }
}

/** The webhooks area: what the registries gather from it (src/areas.ts lists it). */
export const webhooksArea = defineArea<Core>({
  name: 'webhooks',
  entities: [WebhookDelivery, WebhookEndpoint],
  services: {
    webhooks: (core) =>
      new WebhookService(
        {
          timeoutMs: core.config.webhookTimeoutMs,
          retryScheduleSeconds: core.config.webhookRetryScheduleSeconds,
          targets: core.webhookTargets,
        },
        (sealed) => core.secretBox.open(sealed),
        core.treasuryWebhookEndpoints,
        core.pubSub,
        core.v1Keys,
      ),
    webhookEndpoints: (core) => new WebhookEndpointService(core.webhookTargets),
    treasuryWebhookEndpoints: (core) => new TreasuryWebhookEndpointService(core.webhookTargets, core.secretBox),
    deliveryLog: () => new DeliveryLogService(),
    v1Events: (core) => new V1EventService(core.webhooks),
    v1Settings: (core) => new V1SettingsService(core.webhookTargets),
  },
  subscriptions: webhooksSubscriptions,
  jobs: (core) => webhookJobs(core.webhooks),
});
