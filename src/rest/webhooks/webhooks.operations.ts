import type { OperationsByTag } from '../../http/openapi';

/**
 * The webhooks area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Webhooks: {
    description: 'Webhook endpoints, their deliveries and redelivery (docs/webhooks.md).',
    operations: {
      'POST /api/v1/webhook-endpoints': {
        id: 'createWebhookEndpoint',
        summary: 'Create a webhook endpoint',
        description:
          "Registers a URL to receive the business's events, with the events it wants; answers the signing secret once. See docs/webhooks.md.",
      },
      'GET /api/v1/webhook-endpoints': {
        id: 'listWebhookEndpoints',
        summary: 'List webhook endpoints',
        description: 'The webhook endpoints of the business.',
      },
      'GET /api/v1/webhook-endpoints/{id}': {
        id: 'getWebhookEndpoint',
        summary: 'Get a webhook endpoint',
        description: 'One webhook endpoint with its events and status.',
      },
      'PATCH /api/v1/webhook-endpoints/{id}': {
        id: 'updateWebhookEndpoint',
        summary: 'Update a webhook endpoint',
        description: 'Changes the URL, events, description or status of a webhook endpoint.',
      },
      'DELETE /api/v1/webhook-endpoints/{id}': {
        id: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        description: 'Removes a webhook endpoint; no further events are sent to it.',
      },
      'GET /api/v1/webhook-endpoints/{id}/deliveries': {
        id: 'listWebhookEndpointDeliveries',
        summary: "List an endpoint's deliveries",
        description: 'The deliveries of events to one webhook endpoint, newest first, with their attempts and answers.',
      },
      'POST /api/v1/webhook-deliveries/{id}/redeliver': {
        id: 'redeliverWebhookDelivery',
        summary: 'Redeliver a webhook delivery',
        description: 'Sends the event of a delivery to its endpoint again.',
      },
      'GET /api/v1/business/config/webhook-deliveries': {
        id: 'listWebhookUrlDeliveries',
        summary: 'List webhook URL deliveries',
        description: 'The deliveries of events to the business webhook URL of the configuration, newest first.',
      },
      'POST /api/v1/business/config/webhook-deliveries/{deliveryId}/redeliver': {
        id: 'redeliverWebhookUrlDelivery',
        summary: 'Redeliver to the webhook URL',
        description: 'Sends the event of a delivery to the business webhook URL again.',
      },
      'POST /api/v1/treasury/webhook-endpoints': {
        id: 'createTreasuryWebhookEndpoint',
        summary: 'Create a treasury webhook endpoint',
        description:
          "Registers a URL to receive the treasury partner's events; answers the endpoint and its signing secret once.",
      },
      'GET /api/v1/treasury/webhook-endpoints': {
        id: 'listTreasuryWebhookEndpoints',
        summary: 'List treasury webhook endpoints',
        description: 'The webhook endpoints of the treasury partner.',
      },
      'GET /api/v1/treasury/webhook-endpoints/{id}': {
        id: 'getTreasuryWebhookEndpoint',
        summary: 'Get a treasury webhook endpoint',
        description: 'One treasury webhook endpoint.',
      },
      'PATCH /api/v1/treasury/webhook-endpoints/{id}': {
        id: 'updateTreasuryWebhookEndpoint',
        summary: 'Update a treasury webhook endpoint',
        description: 'Changes the URL, events, description or API version of a treasury webhook endpoint.',
      },
      'DELETE /api/v1/treasury/webhook-endpoints/{id}': {
        id: 'deleteTreasuryWebhookEndpoint',
        summary: 'Delete a treasury webhook endpoint',
        description: 'Removes a treasury webhook endpoint.',
      },
      'GET /api/v1/treasury/webhook-endpoints/{id}/deliveries': {
        id: 'listTreasuryWebhookEndpointDeliveries',
        summary: "List a treasury endpoint's deliveries",
        description: 'The deliveries of events to one treasury webhook endpoint, newest first.',
      },
      'POST /api/v1/treasury/webhook-endpoints/{id}/rotate-secret': {
        id: 'rotateTreasuryWebhookEndpointSecret',
        summary: 'Rotate a signing secret',
        description: 'Issues a new signing secret for a treasury webhook endpoint and answers it once.',
      },
    },
  },
};
