import { z } from 'zod';
import { ListPage, PageQuery } from '../../domain/shared/pagination';
import {
  DeliveryFilters,
  IssuedSigningSecret,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookEndpointStatus,
} from '../../domain/webhooks';
import { deliveriesQuerySchema } from '../../wire/webhooks';
import { offsetListSchema, timestampSchema } from '../shared/schemas';

export {
  endpointCreateSchema,
  endpointUpdateSchema,
  rotateSecretSchema,
  treasuryEndpointCreateSchema,
  treasuryEndpointUpdateSchema,
} from '../../wire/webhooks';
export { deliveriesQuerySchema };

/** `/business/config/webhook-deliveries/:deliveryId/redeliver`. */
export const deliveryIdParamsSchema = z.object({ deliveryId: z.string() });

/** A delivery list's query as the filters and the page of the domain's list. */
export function deliveryListQuery(query: z.output<typeof deliveriesQuerySchema>): {
  filters: DeliveryFilters;
  page: PageQuery;
} {
  return {
    filters: { status: query.status ?? null, eventType: query.eventType ?? null },
    page: { kind: 'offset', page: query.page ?? 1, limit: query.limit ?? 20 },
  };
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    object: z.literal('webhook_endpoint'),
    url: z.string(),
    events: z.array(z.string()).describe('Event types it receives; ["*"] means every type'),
    status: z.enum(WebhookEndpointStatus),
    description: z.string().nullable(),
    livemode: z.boolean(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({ id: 'WebhookEndpoint' });

export const webhookEndpointJson = (endpoint: WebhookEndpoint): z.input<typeof webhookEndpointSchema> => ({
  id: endpoint.id,
  object: 'webhook_endpoint',
  url: endpoint.url,
  events: endpoint.events,
  status: endpoint.status,
  description: endpoint.description,
  livemode: endpoint.livemode,
  createdAt: endpoint.createdAt.toISOString(),
  updatedAt: endpoint.updatedAt.toISOString(),
});

/** The documented treasury webhook endpoint: the signing secret appears only as its hint. */
export const treasuryWebhookEndpointSchema = z
  .object({
    id: z.string(),
    object: z.literal('treasury_webhook_endpoint'),
    url: z.string(),
    events: z.array(z.string()).describe('Event types it receives; ["*"] means every type'),
    status: z.enum(WebhookEndpointStatus),
    signingSecretHint: z
      .string()
      .describe('The signing secret as it may be shown again: whsk_… and its last 4 characters'),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
    businessId: z.string(),
    partnerId: z.string().describe("The treasury partner: the business's id"),
    description: z.string().nullable(),
    apiVersion: z.string().describe('Interface version of the payloads'),
    livemode: z.boolean(),
  })
  .meta({ id: 'TreasuryWebhookEndpoint' });

export const treasuryWebhookEndpointJson = (
  endpoint: WebhookEndpoint,
): z.input<typeof treasuryWebhookEndpointSchema> => ({
  id: endpoint.id,
  object: 'treasury_webhook_endpoint',
  url: endpoint.url,
  events: endpoint.events,
  status: endpoint.status,
  // A treasury endpoint always has both (set at creation).
  signingSecretHint: endpoint.secretHint!,
  createdAt: endpoint.createdAt.toISOString(),
  updatedAt: endpoint.updatedAt.toISOString(),
  businessId: endpoint.businessId,
  partnerId: endpoint.businessId,
  description: endpoint.description,
  apiVersion: endpoint.apiVersion!,
  livemode: endpoint.livemode,
});

export const issuedSigningSecretSchema = z
  .object({
    endpoint: treasuryWebhookEndpointSchema,
    signingSecret: z.string().describe('whsk_…: answered only at creation and rotation; keep it'),
  })
  .meta({ id: 'IssuedSigningSecret' });

export const issuedJson = ({
  endpoint,
  signingSecret,
}: IssuedSigningSecret): z.input<typeof issuedSigningSecretSchema> => ({
  endpoint: treasuryWebhookEndpointJson(endpoint),
  signingSecret,
});

/**
 * The documented webhook delivery resource; `partnerId` is set only on deliveries to a treasury
 * endpoint. Added to the documented fields: `requestBody`, the exact bytes sent and signed, and
 * `requestHeaders`, the headers (signatures included) of the latest attempt.
 */
export const webhookDeliverySchema = z
  .object({
    id: z.string(),
    endpointId: z
      .string()
      .nullable()
      .describe("The registered endpoint; null for the business's own webhookUrl or a deleted endpoint"),
    eventId: z.string(),
    eventType: z.string(),
    payload: z
      .object({ event: z.string(), timestamp: timestampSchema, data: z.record(z.string(), z.unknown()) })
      .describe('The body as an object'),
    requestBody: z.string().describe('The exact body every attempt POSTs and signs'),
    requestHeaders: z
      .record(z.string(), z.string())
      .nullable()
      .describe("The latest attempt's request headers, signatures included"),
    status: z.enum(WebhookDeliveryStatus),
    attemptCount: z.number().int(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
    partnerId: z.string().nullable().describe('The treasury partner, on deliveries to a treasury endpoint'),
    nextRetryAt: timestampSchema.nullable(),
    lastAttemptAt: timestampSchema.nullable(),
    responseStatus: z.number().int().nullable(),
    responseBody: z.string().nullable().describe('The first 2 KB of the latest response body'),
    responseTimeMs: z.number().int().nullable(),
    errorMessage: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

export const webhookDeliveryJson = (delivery: WebhookDelivery): z.input<typeof webhookDeliverySchema> => ({
  id: delivery.id,
  endpointId: delivery.endpointId,
  eventId: delivery.eventId,
  eventType: delivery.eventType,
  payload: delivery.payload,
  requestBody: delivery.requestBody,
  requestHeaders: delivery.requestHeaders,
  status: delivery.status,
  attemptCount: delivery.attemptCount,
  createdAt: delivery.createdAt.toISOString(),
  updatedAt: delivery.updatedAt.toISOString(),
  partnerId: delivery.partnerId,
  nextRetryAt: iso(delivery.nextRetryAt),
  lastAttemptAt: iso(delivery.lastAttemptAt),
  responseStatus: delivery.responseStatus,
  responseBody: delivery.responseBody,
  responseTimeMs: delivery.responseTimeMs,
  errorMessage: delivery.errorMessage,
});

export const deliveryListSchema = offsetListSchema(webhookDeliverySchema);

/** An offset page of deliveries as REST lists it: `{ items, total, page, limit }`. */
export const deliveryListJson = (
  list: ListPage<WebhookDelivery>,
  page: PageQuery,
): z.input<typeof deliveryListSchema> => ({
  items: list.items.map(webhookDeliveryJson),
  total: list.total ?? list.items.length,
  page: page.kind === 'offset' ? page.page : 1,
  limit: page.kind === 'offset' ? page.limit : list.items.length,
});

/** The endpoint lists (never paged: at most 20 per mode and registry). */
export const endpointListSchema = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int() });
