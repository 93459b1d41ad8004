import { WebhookDeliveryStatus } from './webhook-delivery.entity';
import { WebhookEndpointStatus } from './webhook-endpoint.entity';

/**
 * What the faces ask of the webhook registries and deliveries, in domain terms. A face checks the
 * shape (an absolute URL, event type names, lengths) and builds one of these; the registries judge
 * the URL against the target policy of the mode, the limits and the permissions.
 */

/** A new endpoint of either registry. */
export interface CreateEndpoint {
  url: string;
  /** Event types (`wallet.funded`, …) or `["*"]`; duplicates are dropped. */
  events: string[];
  /** enabled by default. */
  status?: WebhookEndpointStatus;
  description?: string | null;
}

/** Changes to an endpoint: absent fields are unchanged. */
export interface UpdateEndpoint {
  url?: string;
  events?: string[];
  status?: WebhookEndpointStatus;
  description?: string | null;
}

/** A new treasury endpoint: a merchant endpoint's fields and the interface version of its payloads. */
export interface CreateTreasuryEndpoint extends CreateEndpoint {
  /** One of TREASURY_WEBHOOK_API_VERSIONS; the first by default. */
  apiVersion?: string;
}

export interface UpdateTreasuryEndpoint extends UpdateEndpoint {
  apiVersion?: string;
}

/** A new signing secret for a treasury endpoint; the replaced one signs beside it for the grace period. */
export interface RotateSigningSecret {
  /** 0 to 168; DEFAULT_GRACE_PERIOD_HOURS when absent; 0 retires the old secret at once. */
  gracePeriodHours?: number;
}

/** The filters of every delivery list. */
export interface DeliveryFilters {
  status?: WebhookDeliveryStatus | null;
  eventType?: string | null;
}

/** The deliveries of one registered endpoint. */
export interface EndpointDeliveryFilters extends DeliveryFilters {
  endpointId: string;
}

/** Replays an event to one endpoint (of either registry) or, without one, to the webhookUrl. */
export interface ReplayEvent {
  eventId: string;
  endpointId?: string | null;
}
