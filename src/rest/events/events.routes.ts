import { FastifyInstance } from 'fastify';
import { Core } from '../../domain/core';
import { DomainEvent } from '../../domain/events/event.entity';
import { WebhookDelivery } from '../../domain/webhooks/webhook-delivery.entity';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';
import { parseInput } from '../../wire/validation';
import { replaySchema } from '../../wire/webhooks';
import { webhookDeliveryJson } from '../webhooks/webhook-endpoints.routes';

const eventJson = (event: DomainEvent, deliveries: WebhookDelivery[]) => ({
  id: event.id,
  object: 'event',
  type: event.type,
  livemode: event.livemode,
  data: event.data,
  createdAt: event.createdAt.toISOString(),
  deliveries: deliveries.map(webhookDeliveryJson),
});

/** The event log: `GET /api/v1/events` (type, from, to, page, limit) and `GET /api/v1/events/{id}`. */
export function eventRoutes(app: FastifyInstance, core: Core) {
  app.get<{ Querystring: Record<string, string | undefined> }>('/api/v1/events', async (request) => {
    const ctx = authenticated(request);
    const { type, from, to, page, limit } = request.query;
    const result = await core.eventLog.list(ctx, { type, from, to }, { page, limit });
    const deliveries = await core.eventLog.deliveriesOf(ctx, result.items.map((event) => event.id));
    return success({
      ...result,
      items: result.items.map((event) => eventJson(event, deliveries.filter((delivery) => delivery.eventId === event.id))),
    });
  });

  app.get<{ Params: { id: string } }>('/api/v1/events/:id', async (request) => {
    const ctx = authenticated(request);
    const event = await core.eventLog.get(ctx, request.params.id);
    return success(eventJson(event, await core.eventLog.deliveriesOf(ctx, [event.id])));
  });

  app.post<{ Params: { id: string } }>('/api/v1/events/:id/replay', async (request, reply) => {
    const ctx = authenticated(request);
    const { endpointId } = parseInput(replaySchema, request.body ?? {});
    const delivery = await core.webhooks.replayEvent(ctx, { eventId: request.params.id, endpointId });
    reply.status(201);
    return success(webhookDeliveryJson(delivery));
  });
}
