import type { OperationsByTag } from '../../http/openapi';

/**
 * The events area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Events: {
    description: 'The event log: every event of the business, and replaying one to its webhooks.',
    operations: {
      'GET /api/v1/events': {
        id: 'listEvents',
        summary: 'List events',
        description: 'The event log of the business, newest first, filtered by type, paged with `page` and `limit`.',
      },
      'GET /api/v1/events/{id}': {
        id: 'getEvent',
        summary: 'Get an event',
        description: 'One event with the object it carries.',
      },
      'POST /api/v1/events/{id}/replay': {
        id: 'replayEvent',
        summary: 'Replay an event',
        description:
          'Sends an event again as a new delivery: to the endpoint named by `endpointId`, or without it to the business webhook URL.',
      },
    },
  },
};
