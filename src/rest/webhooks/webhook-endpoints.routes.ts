import { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Core } from '../../domain/core';
import { WebhookEndpoint, WebhookEndpointRegistry } from '../../domain/webhooks';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';
import { deletedSchema, idParamsSchema, responses } from '../shared/schemas';
import type { RestApp } from '../surface';
import {
  deliveriesQuerySchema,
  deliveryIdParamsSchema,
  deliveryListJson,
  deliveryListQuery,
  deliveryListSchema,
  endpointCreateSchema,
  endpointUpdateSchema,
  endpointListSchema,
  webhookDeliveryJson,
  webhookDeliverySchema,
  webhookEndpointJson,
  webhookEndpointSchema,
} from './webhooks.validators';

export { webhookDeliveryJson, webhookEndpointJson } from './webhooks.validators';

/** How one registry reads on the wire: its resource schema, its mapper, its `object` name and its update body. */
export interface RegistryWire<E extends z.ZodType, U extends z.ZodType> {
  endpointSchema: E;
  endpointJson: (endpoint: WebhookEndpoint) => z.input<E>;
  object: string;
  updateSchema: U;
  toChanges: (body: z.output<U>) => Parameters<WebhookEndpointRegistry['update']>[2];
}

/**
 * A route's refusals that come before its input is read (role, product, the endpoint's existence),
 * as each registry answered them before REST checked shapes itself.
 */
export const accessFirst =
  (registry: WebhookEndpointRegistry, access: 'read' | 'write', withId = false) =>
  async (request: FastifyRequest) => {
    const params = request.params as { id?: string };
    await registry.assertAccess(authenticated(request), access, withId ? params.id : undefined);
  };

/** The routes both registries share under `path`: list, read, change, delete, and an endpoint's deliveries. */
export function registryRoutes<E extends z.ZodType, U extends z.ZodType>(
  app: RestApp,
  path: string,
  registry: WebhookEndpointRegistry,
  wire: RegistryWire<E, U>,
) {
  const { endpointJson, object, updateSchema, toChanges } = wire;
  // Declared as a plain ZodType: the type provider cannot resolve a reply type through the generic E (the mapper is typed against E).
  const endpointSchema: z.ZodType = wire.endpointSchema;
  const endpointData = (endpoint: WebhookEndpoint) => success(endpointJson(endpoint));

  app.get(path, { schema: { response: responses({ 200: endpointListSchema(endpointSchema) }) } }, async (request) => {
    const items = await registry.list(authenticated(request));
    return success({ items: items.map(endpointJson), total: items.length });
  });

  app.get(
    `${path}/:id`,
    { schema: { params: idParamsSchema, response: responses({ 200: endpointSchema }) } },
    async (request) => endpointData(await registry.get(authenticated(request), request.params.id)),
  );

  app.patch(
    `${path}/:id`,
    {
      preValidation: accessFirst(registry, 'write', true),
      schema: { params: idParamsSchema, body: updateSchema, response: responses({ 200: endpointSchema }) },
    },
    async (request) =>
      endpointData(
        await registry.update(authenticated(request), request.params.id, toChanges(request.body as z.output<U>)),
      ),
  );

  app.delete(
    `${path}/:id`,
    { schema: { params: idParamsSchema, response: responses({ 200: deletedSchema(object) }) } },
    async (request) => {
      const endpoint = await registry.delete(authenticated(request), request.params.id);
      return success({ id: endpoint.id, object, deleted: true as const });
    },
  );

  app.get(
    `${path}/:id/deliveries`,
    {
      preValidation: accessFirst(registry, 'read', true),
      schema: {
        params: idParamsSchema,
        querystring: deliveriesQuerySchema,
        response: responses({ 200: deliveryListSchema }),
      },
    },
    async (request) => {
      const { filters, page } = deliveryListQuery(request.query);
      const list = await registry.listDeliveries(
        authenticated(request),
        { endpointId: request.params.id, ...filters },
        page,
      );
      return success(deliveryListJson(list, page));
    },
  );
}

/**
 * The merchant's webhook endpoint registry (per business and mode) and each endpoint's deliveries;
 * the deliveries to the business's own webhookUrl (PUT /business/config), listed and redelivered
 * the same way; manual redelivery of any delivery.
 */
export function webhookEndpointRoutes(app: RestApp, core: Core) {
  app.post(
    '/api/v1/webhook-endpoints',
    {
      preValidation: accessFirst(core.webhookEndpoints, 'write'),
      schema: { body: endpointCreateSchema, response: responses({ 201: webhookEndpointSchema }) },
    },
    async (request, reply) => {
      const endpoint = await core.webhookEndpoints.create(authenticated(request), request.body);
      reply.status(201);
      return success(webhookEndpointJson(endpoint));
    },
  );

  registryRoutes(app, '/api/v1/webhook-endpoints', core.webhookEndpoints, {
    endpointSchema: webhookEndpointSchema,
    endpointJson: webhookEndpointJson,
    object: 'webhook_endpoint',
    updateSchema: endpointUpdateSchema,
    toChanges: (body) => body,
  });

  app.get(
    '/api/v1/business/config/webhook-deliveries',
    {
      schema: { querystring: deliveriesQuerySchema, response: responses({ 200: deliveryListSchema }) },
    },
    async (request) => {
      const { filters, page } = deliveryListQuery(request.query);
      return success(
        deliveryListJson(await core.webhooks.listWebhookUrlDeliveries(authenticated(request), filters, page), page),
      );
    },
  );

  app.post(
    '/api/v1/business/config/webhook-deliveries/:deliveryId/redeliver',
    {
      schema: { params: deliveryIdParamsSchema, response: responses({ 201: webhookDeliverySchema }) },
    },
    async (request, reply) => {
      const delivery = await core.webhooks.redeliverWebhookUrlDelivery(
        authenticated(request),
        request.params.deliveryId,
      );
      reply.status(201);
      return success(webhookDeliveryJson(delivery));
    },
  );

  app.post(
    '/api/v1/webhook-deliveries/:id/redeliver',
    { schema: { params: idParamsSchema, response: responses({ 201: webhookDeliverySchema }) } },
    async (request, reply) => {
      const delivery = await core.webhooks.redeliver(authenticated(request), request.params.id);
      reply.status(201);
      return success(webhookDeliveryJson(delivery));
    },
  );
}
