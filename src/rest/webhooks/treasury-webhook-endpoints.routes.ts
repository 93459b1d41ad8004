import { FastifyInstance } from 'fastify';
import { Core } from '../../domain/core';
import { WebhookEndpoint } from '../../domain/webhooks/webhook-endpoint.entity';
import { IssuedSigningSecret } from '../../domain/webhooks/treasury-webhook-endpoint.service';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';
import { ById, registryRoutes } from './webhook-endpoints.routes';

const PATH = '/api/v1/treasury/webhook-endpoints';

/** The documented treasury webhook endpoint: the signing secret appears only as its hint. */
export const treasuryWebhookEndpointJson = (endpoint: WebhookEndpoint) => ({
  id: endpoint.id,
  object: 'treasury_webhook_endpoint',
  url: endpoint.url,
  events: endpoint.events,
  status: endpoint.status,
  signingSecretHint: endpoint.secretHint,
  createdAt: endpoint.createdAt.toISOString(),
  updatedAt: endpoint.updatedAt.toISOString(),
  businessId: endpoint.businessId,
  partnerId: endpoint.businessId,
  description: endpoint.description,
  apiVersion: endpoint.apiVersion,
  livemode: endpoint.livemode,
});

const issuedJson = ({ endpoint, signingSecret }: IssuedSigningSecret) => ({ endpoint: treasuryWebhookEndpointJson(endpoint), signingSecret });

/** The treasury partners' webhook endpoint registry; creation and rotation answer the secret, once. */
export function treasuryWebhookEndpointRoutes(app: FastifyInstance, core: Core) {
  app.post(PATH, async (request, reply) => {
    const issued = await core.treasuryWebhookEndpoints.create(authenticated(request), request.body);
    reply.status(201);
    return success(issuedJson(issued));
  });

  registryRoutes(app, PATH, core.treasuryWebhookEndpoints, treasuryWebhookEndpointJson, 'treasury_webhook_endpoint');

  app.post<ById>(`${PATH}/:id/rotate-secret`, async (request) =>
    success(issuedJson(await core.treasuryWebhookEndpoints.rotateSecret(authenticated(request), request.params.id, request.body))));
}
