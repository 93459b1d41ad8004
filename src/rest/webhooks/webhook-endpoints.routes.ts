import { FastifyInstance } from 'fastify';
import { Core } from '../../domain/core';
import { WebhookDelivery } from '../../domain/webhooks/webhook-delivery.entity';
import { WebhookEndpoint } from '../../domain/webhooks/webhook-endpoint.entity';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const webhookEndpointJson = (endpoint: WebhookEndpoint) => ({
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

/** The documented webhook delivery resource; `partnerId` is always null for a merchant's deliveries. */
export const webhookDeliveryJson = (delivery: WebhookDelivery) => ({
  id: delivery.id,
  endpointId: delivery.endpointId,
  eventId: delivery.eventId,
  eventType: delivery.eventType,
  payload: delivery.payload,
  status: delivery.status,
  attemptCount: delivery.attemptCount,
  createdAt: delivery.createdAt.toISOString(),
  updatedAt: delivery.updatedAt.toISOString(),
  partnerId: null,
  nextRetryAt: iso(delivery.nextRetryAt),
  lastAttemptAt: iso(delivery.lastAttemptAt),
  responseStatus: delivery.responseStatus,
  responseBody: delivery.responseBody,
  responseTimeMs: delivery.responseTimeMs,
  errorMessage: delivery.errorMessage,
});

type ById = { Params: { id: string } };

/** The merchant's webhook endpoint registry (per business and mode) and each endpoint's deliveries. */
export function webhookEndpointRoutes(app: FastifyInstance, core: Core) {
  const endpoints = core.webhookEndpoints;

  app.post('/api/v1/webhook-endpoints', async (request, reply) => {
    const endpoint = await endpoints.create(authenticated(request), request.body);
    reply.status(201);
    return success(webhookEndpointJson(endpoint));
  });

  app.get('/api/v1/webhook-endpoints', async (request) => {
    const items = await endpoints.list(authenticated(request));
    return success({ items: items.map(webhookEndpointJson), total: items.length });
  });

  app.get<ById>('/api/v1/webhook-endpoints/:id', async (request) =>
    success(webhookEndpointJson(await endpoints.get(authenticated(request), request.params.id))));

  app.patch<ById>('/api/v1/webhook-endpoints/:id', async (request) =>
    success(webhookEndpointJson(await endpoints.update(authenticated(request), request.params.id, request.body))));

  app.delete<ById>('/api/v1/webhook-endpoints/:id', async (request) => {
    const endpoint = await endpoints.delete(authenticated(request), request.params.id);
    return success({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
  });

  app.get<ById & { Querystring: Record<string, string> }>('/api/v1/webhook-endpoints/:id/deliveries', async (request) => {
    const page = await endpoints.deliveries(authenticated(request), request.params.id, request.query);
    return success({ items: page.items.map(webhookDeliveryJson), total: page.total, page: page.page, limit: page.limit });
  });

  app.post<ById>('/api/v1/webhook-deliveries/:id/redeliver', async (request, reply) => {
    const delivery = await core.webhooks.redeliver(authenticated(request), request.params.id);
    reply.status(201);
    return success(webhookDeliveryJson(delivery));
  });
}
