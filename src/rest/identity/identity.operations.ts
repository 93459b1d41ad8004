import type { OperationsByTag } from '../../http/openapi';

/**
 * The identity area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Identity: {
    description: 'API tokens and API keys of a business (docs/rest-api.md, Authentication).',
    operations: {
      'POST /api/v1/business/auth/token': {
        id: 'createApiToken',
        summary: 'Exchange an API key and secret for an API token',
        description:
          'Trades the business API key and secret (in the body) for a short-lived bearer token (JWT) usable on every authenticated operation. Needs no credential header. See docs/rest-api.md, Authentication.',
      },
      'POST /api/v1/business/regenerate-api-key': {
        id: 'regenerateApiKey',
        summary: 'Regenerate the API key',
        description:
          'Issues a new API key for the current mode and retires the old one at once; answers the new key and its hint.',
      },
    },
  },
  'Business settings': {
    description: 'The business configuration of each mode (its webhook URL).',
    operations: {
      'GET /api/v1/business/config': {
        id: 'getBusinessConfig',
        summary: 'Get the business configuration',
        description: 'The business settings of the current mode: its name and webhook URL.',
      },
      'PUT /api/v1/business/config': {
        id: 'updateBusinessConfig',
        summary: 'Update the business configuration',
        description: 'Sets the webhook URL of the current mode, where its events are POSTed.',
      },
    },
  },
};
