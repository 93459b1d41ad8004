import { z } from 'zod';
import { MAX_PAGE_SIZE, PageQuery } from '../../domain/shared/pagination';
import { eventFilterFields } from '../../wire/events';
import { idParamsSchema, offsetListSchema, timestampSchema } from '../shared/schemas';
import { webhookDeliverySchema } from '../webhooks/webhooks.validators';

export { webhookDeliverySchema };

// ---------------------------------------------------------------- requests

export const eventQuerySchema = z.object({
  ...eventFilterFields,
  page: z.coerce.number().int().min(1, 'must be 1 or more').default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`).default(20),
});

export const replayEventBodySchema = z.object({
  endpointId: z
    .string({ error: 'must be an endpoint id' })
    .nullish()
    .describe("The endpoint to replay to; without it, the business's webhookUrl of this mode"),
});

export const eventParamsSchema = idParamsSchema;

export const toEventPage = (query: z.output<typeof eventQuerySchema>): PageQuery & { kind: 'offset' } => ({
  kind: 'offset',
  page: query.page,
  limit: query.limit,
});

// ---------------------------------------------------------------- responses

export const eventSchema = z
  .object({
    id: z.string(),
    object: z.literal('event'),
    type: z.string().describe('e.g. wallet.funded'),
    livemode: z.boolean(),
    data: z.record(z.string(), z.unknown()).describe('The event payload, as sent in webhooks'),
    createdAt: timestampSchema,
    deliveries: z.array(webhookDeliverySchema).describe("The event's webhook deliveries, oldest first"),
  })
  .meta({ id: 'Event' });

export const eventPageSchema = offsetListSchema(eventSchema);
