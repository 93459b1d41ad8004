import type { OperationsByTag } from '../../http/openapi';

/**
 * The recurring-gifts area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  'Recurring gifts': {
    description: 'Recurring gifts charged on a cadence to a saved card.',
    operations: {
      'GET /api/v1/business/recurring-gifts': {
        id: 'listRecurringGifts',
        summary: 'List recurring gifts',
        description: 'The recurring gifts of the business, newest first.',
      },
      'GET /api/v1/business/recurring-gifts/{id}': {
        id: 'getRecurringGift',
        summary: 'Get a recurring gift',
        description: 'One recurring gift with its cadence, next charge date and counts.',
      },
      'POST /api/v1/business/recurring-gifts/{id}/cancel': {
        id: 'cancelRecurringGift',
        summary: 'Cancel a recurring gift',
        description: 'Stops a recurring gift; no further charges are made.',
      },
      'POST /api/v1/business/recurring-gifts/{id}/resume': {
        id: 'resumeRecurringGift',
        summary: 'Resume a recurring gift',
        description: 'Restarts a recurring gift paused after failed charges.',
      },
    },
  },
  // Its test-mode helpers, under the sandbox area's tag (src/rest/sandbox/sandbox.operations.ts).
  Sandbox: {
    operations: {
      'POST /api/v1/business/sandbox/recurring-gifts/{id}/charge-now': {
        id: 'chargeSandboxRecurringGiftNow',
        summary: 'Charge a test recurring gift now',
        description: "Test mode only: makes a recurring gift's next charge at once.",
      },
    },
  },
};
