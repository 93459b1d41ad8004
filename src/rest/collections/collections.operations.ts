import type { OperationsByTag } from '../../http/openapi';

/**
 * The collections area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Collections: {
    description: 'Collections: money requested through a local channel (bank transfer, mobile money).',
    operations: {
      'GET /api/v1/business/collections/channels': {
        id: 'listCollectionChannels',
        summary: 'List collection channels',
        description: 'The local channels (bank transfer, mobile money) a collection can use, by country and currency.',
      },
      'POST /api/v1/business/collections': {
        id: 'createCollection',
        summary: 'Create a collection',
        description:
          'Requests money from a payer through a local channel and answers the instructions to show the payer. See docs/collections.md.',
      },
      'GET /api/v1/business/collections': {
        id: 'listCollections',
        summary: 'List collections',
        description: 'The collections of the business, newest first.',
      },
      'GET /api/v1/business/collections/{id}': {
        id: 'getCollection',
        summary: 'Get a collection',
        description: 'One collection with its status, instructions and expiry.',
      },
    },
  },
  // Its test-mode helpers, under the sandbox area's tag (src/rest/sandbox/sandbox.operations.ts).
  Sandbox: {
    operations: {
      'POST /api/v1/business/sandbox/collections/{id}/pay': {
        id: 'paySandboxCollection',
        summary: 'Pay a test collection',
        description:
          'Test mode only: the payer pays `amount` (minor units) into the collection; answers the collection as it then is.',
      },
    },
  },
};
