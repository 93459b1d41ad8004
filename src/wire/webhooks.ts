/**
 * Wire shapes of the webhook registries that both faces read (REST `/webhook-endpoints`,
 * `/treasury/webhook-endpoints` and their GraphQL mutations): the same checks and messages
 * whichever face an endpoint arrives through. The registries judge the URL's target, the limits
 * and the permissions.
 */
import { z } from 'zod';
import { absoluteUrlSchema, enumFilter, pageParams, required } from './validation';
import {
  ALL_EVENTS,
  API_VERSION_MESSAGE,
  GRACE_PERIOD_MESSAGE,
  MAX_GRACE_PERIOD_HOURS,
  TREASURY_WEBHOOK_API_VERSIONS,
  WebhookDeliveryStatus,
  WebhookEndpointStatus,
} from '../domain/webhooks';

const EVENT_TYPE = /^[a-z_]+(\.[a-z_]+)*$/;

const eventsSchema = z
  .array(
    z
      .string()
      .refine(
        (value) => value === ALL_EVENTS || EVENT_TYPE.test(value),
        'must be an event type such as wallet.funded, or "*"',
      ),
    { error: required('a non-empty array of event types, or ["*"]') },
  )
  .min(1, 'must list at least one event type, or "*"')
  .max(100, 'must list at most 100 event types')
  .transform((events) => [...new Set(events)]);

const statusSchema = z.enum(WebhookEndpointStatus, { error: 'must be enabled or disabled' });
const descriptionSchema = z.string().trim().max(500, 'must be at most 500 characters').nullable();
const urlSchema = z.string({ error: required('an absolute http(s) URL') }).pipe(absoluteUrlSchema);
const apiVersionSchema = z.enum(TREASURY_WEBHOOK_API_VERSIONS, { error: API_VERSION_MESSAGE });

/** The body that creates a merchant endpoint. */
export const endpointCreateSchema = z.object(
  {
    url: urlSchema,
    events: eventsSchema,
    status: statusSchema.optional(),
    description: descriptionSchema.optional(),
  },
  { error: 'must be a JSON object' },
);

/** The body that changes an endpoint: any of the fields, absent ones unchanged. */
export const endpointUpdateSchema = z.object(
  {
    url: urlSchema.optional(),
    events: eventsSchema.optional(),
    status: statusSchema.optional(),
    description: descriptionSchema.optional(),
  },
  { error: 'must be a JSON object' },
);

export const treasuryEndpointCreateSchema = endpointCreateSchema.extend({ apiVersion: apiVersionSchema.optional() });
export const treasuryEndpointUpdateSchema = endpointUpdateSchema.extend({ apiVersion: apiVersionSchema.optional() });

export const rotateSecretSchema = z.object(
  {
    gracePeriodHours: z
      .number({ error: GRACE_PERIOD_MESSAGE })
      .int(GRACE_PERIOD_MESSAGE)
      .min(0, GRACE_PERIOD_MESSAGE)
      .max(MAX_GRACE_PERIOD_HOURS, GRACE_PERIOD_MESSAGE)
      .optional(),
  },
  { error: 'must be a JSON object' },
);

/** The filters of every delivery list: `status` (any letter case) and `eventType`. */
export const deliveryFiltersSchema = z.object({
  status: enumFilter(WebhookDeliveryStatus).nullish(),
  eventType: z.string().regex(EVENT_TYPE, 'must be an event type such as wallet.funded').nullish(),
});

/** A REST delivery list's query: the filters, `page` and `limit`. */
export const deliveriesQuerySchema = deliveryFiltersSchema.extend(pageParams);
