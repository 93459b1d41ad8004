import { z } from 'zod';
import { MAX_PAGE_SIZE, PageQuery } from '../../domain/shared/pagination';
import { WebhookDeliveryStatus } from '../../domain/webhooks/webhook-delivery.entity';
import { eventFilterFields } from '../../wire/events';
import { idParamsSchema, offsetListSchema, timestampSchema } from '../shared/schemas';

// ---------------------------------------------------------------- requests

export const eventQuerySchema = z.object({
  ...eventFilterFields,
  page: z.coerce.number().int().min(1, 'must be 1 or more').default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`).default(20),
});

export const replayEventBodySchema = z.object({
  endpointId: z.string({ error: 'must be an endpoint id' }).nullish().describe("The endpoint to replay to; without it, the business's webhookUrl of this mode"),
});

export const eventParamsSchema = idParamsSchema;

export const toEventPage = (query: z.output<typeof eventQuerySchema>): PageQuery & { kind: 'offset' } =>
  ({ kind: 'offset', page: query.page, limit: query.limit });

// ---------------------------------------------------------------- responses

const nullableTimestamp = z.string().nullable().describe('ISO 8601 date-time in UTC, or null');

/** The documented webhook delivery resource (plus requestBody and requestHeaders). */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  endpointId: z.string().nullable().describe("null for a delivery to the business's webhookUrl"),
  eventId: z.string(),
  eventType: z.string(),
  payload: z.object({ event: z.string(), timestamp: z.string(), data: z.record(z.string(), z.unknown()) }).describe('The webhook body as an object'),
  requestBody: z.string().describe('The exact body every attempt sends and signs (JSON text)'),
  requestHeaders: z.record(z.string(), z.string()).nullable().describe("The latest attempt's request headers, signatures included; null before the first attempt"),
  status: z.enum(WebhookDeliveryStatus),
  attemptCount: z.number().int(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  partnerId: z.string().nullable().describe('The treasury partner on deliveries to a treasury endpoint; null otherwise'),
  nextRetryAt: nullableTimestamp,
  lastAttemptAt: nullableTimestamp,
  responseStatus: z.number().int().nullable(),
  responseBody: z.string().nullable(),
  responseTimeMs: z.number().int().nullable(),
  errorMessage: z.string().nullable(),
});

export const eventSchema = z.object({
  id: z.string(),
  object: z.literal('event'),
  type: z.string().describe('e.g. wallet.funded'),
  livemode: z.boolean(),
  data: z.record(z.string(), z.unknown()).describe('The event payload, as sent in webhooks'),
  createdAt: timestampSchema,
  deliveries: z.array(webhookDeliverySchema).describe("The event's webhook deliveries, oldest first"),
});

export const eventPageSchema = offsetListSchema(eventSchema);
