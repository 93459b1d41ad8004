import { z } from 'zod';
import { Core } from '../../domain/core';
import { DomainEvent } from '../../domain/events/event.entity';
import { RequestContext } from '../../domain/shared/context';
import { WebhookDelivery } from '../../domain/webhooks';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';
import { responses } from '../shared/schemas';
import type { RestApp } from '../surface';
import { webhookDeliveryJson } from '../webhooks/webhook-endpoints.routes';
import { toEventFilters } from '../../wire/events';
import {
  eventPageSchema,
  eventParamsSchema,
  eventQuerySchema,
  eventSchema,
  replayEventBodySchema,
  toEventPage,
  webhookDeliverySchema,
} from './events.validators';

const eventJson = (event: DomainEvent, deliveries: WebhookDelivery[]): z.input<typeof eventSchema> => ({
  id: event.id,
  object: 'event',
  type: event.type,
  livemode: event.livemode,
  data: event.data,
  createdAt: event.createdAt.toISOString(),
  deliveries: deliveries.filter((delivery) => delivery.eventId === event.id).map(webhookDeliveryJson),
});

/** The events with their deliveries, read in one query. */
async function eventsJson(core: Core, ctx: RequestContext, events: DomainEvent[]) {
  const deliveries = await core.deliveryLog.deliveriesOf(
    ctx,
    events.map((event) => event.id),
  );
  return events.map((event) => eventJson(event, deliveries));
}

const byId = { params: eventParamsSchema };

/** The event log: `GET /api/v1/events` (type, from, to, page, limit), `GET /api/v1/events/{id}` and its replay. */
export function eventRoutes(app: RestApp, core: Core) {
  app.get(
    '/api/v1/events',
    { schema: { querystring: eventQuerySchema, response: responses({ 200: eventPageSchema }) } },
    async (request) => {
      const ctx = authenticated(request);
      const list = await core.eventLog.list(ctx, toEventFilters(request.query), toEventPage(request.query));
      return success({
        items: await eventsJson(core, ctx, list.items),
        total: list.total!,
        page: request.query.page,
        limit: request.query.limit,
      });
    },
  );

  app.get('/api/v1/events/:id', { schema: { ...byId, response: responses({ 200: eventSchema }) } }, async (request) => {
    const ctx = authenticated(request);
    const [event] = await eventsJson(core, ctx, [await core.eventLog.get(ctx, request.params.id)]);
    return success(event);
  });

  app.post(
    '/api/v1/events/:id/replay',
    { schema: { ...byId, body: replayEventBodySchema, response: responses({ 201: webhookDeliverySchema }) } },
    async (request, reply) => {
      const delivery = await core.webhooks.replayEvent(authenticated(request), {
        eventId: request.params.id,
        endpointId: request.body.endpointId,
      });
      reply.status(201);
      return success(webhookDeliveryJson(delivery));
    },
  );
}
