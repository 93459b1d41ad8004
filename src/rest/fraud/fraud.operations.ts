import type { OperationsByTag } from '../../http/openapi';

/**
 * The fraud area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Fraud: {
    description: 'Fraud rules and the blocklist screened on every charge.',
    operations: {
      'POST /api/v1/business/fraud/rules': {
        id: 'createFraudRule',
        summary: 'Create a fraud rule',
        description:
          'Adds a screening rule (card country, card BIN, email domain, amount above, card velocity) that every charge is checked against.',
      },
      'GET /api/v1/business/fraud/rules': {
        id: 'listFraudRules',
        summary: 'List fraud rules',
        description: 'The fraud rules of the business, in screening order.',
      },
      'GET /api/v1/business/fraud/rules/{id}': {
        id: 'getFraudRule',
        summary: 'Get a fraud rule',
        description: 'One fraud rule with its parameters.',
      },
      'PATCH /api/v1/business/fraud/rules/{id}': {
        id: 'updateFraudRule',
        summary: 'Update a fraud rule',
        description: "Changes a fraud rule's parameters, description or whether it is enabled.",
      },
      'DELETE /api/v1/business/fraud/rules/{id}': {
        id: 'deleteFraudRule',
        summary: 'Delete a fraud rule',
        description: 'Removes a fraud rule; later charges are no longer screened by it.',
      },
      'POST /api/v1/business/fraud/blocklist': {
        id: 'createBlocklistEntry',
        summary: 'Block a value',
        description:
          'Adds an email, card fingerprint or IP address to the blocklist; the same value twice answers 409.',
      },
      'GET /api/v1/business/fraud/blocklist': {
        id: 'listBlocklistEntries',
        summary: 'List blocklist entries',
        description: 'The blocklist of the business, newest first, filtered by `type`, paged with `page` and `limit`.',
      },
      'GET /api/v1/business/fraud/blocklist/{id}': {
        id: 'getBlocklistEntry',
        summary: 'Get a blocklist entry',
        description: 'One blocked value.',
      },
      'DELETE /api/v1/business/fraud/blocklist/{id}': {
        id: 'deleteBlocklistEntry',
        summary: 'Unblock a value',
        description: 'Removes an entry from the blocklist.',
      },
    },
  },
};
