import { FastifyInstance } from 'fastify';
import { Core } from '../../domain/core';
import { WebhookDelivery } from '../../domain/webhooks/webhook-delivery.entity';
import { WebhookEndpoint } from '../../domain/webhooks/webhook-endpoint.entity';
import { WebhookEndpointRegistry } from '../../domain/webhooks/webhook-endpoint-registry';
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

/**
 * The documented webhook delivery resource; `partnerId` is set only on deliveries to a treasury
 * endpoint. Added to the documented fields: `requestBody`, the exact bytes sent and signed, and
 * `requestHeaders`, the headers (signatures included) of the latest attempt.
 */
export const webhookDeliveryJson = (delivery: WebhookDelivery) => ({
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

export type ById = { Params: { id: string } };

/** The routes both registries share under `path`: list, read, change, delete, and an endpoint's deliveries. */
export function registryRoutes(
  app: FastifyInstance,
  path: string,
  registry: WebhookEndpointRegistry,
  endpointJson: (endpoint: WebhookEndpoint) => Record<string, unknown>,
  object: string,
) {
  app.get(path, async (request) => {
    const items = await registry.list(authenticated(request));
    return success({ items: items.map(endpointJson), total: items.length });
  });

  app.get<ById>(`${path}/:id`, async (request) =>
    success(endpointJson(await registry.get(authenticated(request), request.params.id))));

  app.patch<ById>(`${path}/:id`, async (request) =>
    success(endpointJson(await registry.update(authenticated(request), request.params.id, request.body))));

  app.delete<ById>(`${path}/:id`, async (request) => {
    const endpoint = await registry.delete(authenticated(request), request.params.id);
    return success({ id: endpoint.id, object, deleted: true });
  });

  app.get<ById & { Querystring: Record<string, string> }>(`${path}/:id/deliveries`, async (request) => {
    const page = await registry.deliveries(authenticated(request), request.params.id, request.query);
    return success({ items: page.items.map(webhookDeliveryJson), total: page.total, page: page.page, limit: page.limit });
  });
}

/**
 * The merchant's webhook endpoint registry (per business and mode) and each endpoint's deliveries;
 * the deliveries to the business's own webhookUrl (PUT /business/config), listed and redelivered
 * the same way; manual redelivery of any delivery.
 */
export function webhookEndpointRoutes(app: FastifyInstance, core: Core) {
  app.post('/api/v1/webhook-endpoints', async (request, reply) => {
    const endpoint = await core.webhookEndpoints.create(authenticated(request), request.body);
    reply.status(201);
    return success(webhookEndpointJson(endpoint));
  });

  registryRoutes(app, '/api/v1/webhook-endpoints', core.webhookEndpoints, webhookEndpointJson, 'webhook_endpoint');

  app.get<{ Querystring: Record<string, string> }>('/api/v1/business/config/webhook-deliveries', async (request) => {
    const page = await core.webhooks.webhookUrlDeliveries(authenticated(request), request.query);
    return success({ items: page.items.map(webhookDeliveryJson), total: page.total, page: page.page, limit: page.limit });
  });

  app.post<{ Params: { deliveryId: string } }>('/api/v1/business/config/webhook-deliveries/:deliveryId/redeliver', async (request, reply) => {
    const delivery = await core.webhooks.redeliverWebhookUrlDelivery(authenticated(request), request.params.deliveryId);
    reply.status(201);
    return success(webhookDeliveryJson(delivery));
  });

  app.post<ById>('/api/v1/webhook-deliveries/:id/redeliver', async (request, reply) => {
    const delivery = await core.webhooks.redeliver(authenticated(request), request.params.id);
    reply.status(201);
    return success(webhookDeliveryJson(delivery));
  });
}
