import { Core } from '../../domain/core';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';
import { idParamsSchema, responses } from '../shared/schemas';
import type { RestApp } from '../surface';
import { accessFirst, registryRoutes } from './webhook-endpoints.routes';
import {
  issuedJson,
  issuedSigningSecretSchema,
  rotateSecretSchema,
  treasuryEndpointCreateSchema,
  treasuryEndpointUpdateSchema,
  treasuryWebhookEndpointJson,
  treasuryWebhookEndpointSchema,
} from './webhooks.validators';

export { treasuryWebhookEndpointJson } from './webhooks.validators';

const PATH = '/api/v1/treasury/webhook-endpoints';

/** The treasury partners' webhook endpoint registry; creation and rotation answer the secret, once. */
export function treasuryWebhookEndpointRoutes(app: RestApp, core: Core) {
  app.post(
    PATH,
    {
      preValidation: accessFirst(core.treasuryWebhookEndpoints, 'write'),
      schema: { body: treasuryEndpointCreateSchema, response: responses({ 201: issuedSigningSecretSchema }) },
    },
    async (request, reply) => {
      const issued = await core.treasuryWebhookEndpoints.create(authenticated(request), request.body);
      reply.status(201);
      return success(issuedJson(issued));
    },
  );

  registryRoutes(app, PATH, core.treasuryWebhookEndpoints, {
    endpointSchema: treasuryWebhookEndpointSchema,
    endpointJson: treasuryWebhookEndpointJson,
    object: 'treasury_webhook_endpoint',
    updateSchema: treasuryEndpointUpdateSchema,
    toChanges: (body) => body,
  });

  app.post(
    `${PATH}/:id/rotate-secret`,
    {
      preValidation: accessFirst(core.treasuryWebhookEndpoints, 'write', true),
      schema: {
        params: idParamsSchema,
        body: rotateSecretSchema,
        response: responses({ 200: issuedSigningSecretSchema }),
      },
    },
    async (request) =>
      success(
        issuedJson(
          await core.treasuryWebhookEndpoints.rotateSecret(authenticated(request), request.params.id, request.body),
        ),
      ),
  );
}
