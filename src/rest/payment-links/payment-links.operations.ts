import type { OperationsByTag } from '../../http/openapi';

/**
 * The payment-links area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  'Payment links': {
    description: 'Reusable links to a hosted checkout.',
    operations: {
      'POST /api/v1/business/payment-links': {
        id: 'createPaymentLink',
        summary: 'Create a payment link',
        description: 'Creates a reusable link to a hosted checkout.',
      },
      'GET /api/v1/business/payment-links': {
        id: 'listPaymentLinks',
        summary: 'List payment links',
        description: 'The payment links of the business, newest first.',
      },
      'GET /api/v1/business/payment-links/{id}': {
        id: 'getPaymentLink',
        summary: 'Get a payment link',
        description: 'One payment link with its URL and status.',
      },
      'POST /api/v1/business/payment-links/{id}/deactivate': {
        id: 'deactivatePaymentLink',
        summary: 'Deactivate a payment link',
        description: 'Stops a payment link from taking payments; its page then says it is no longer active.',
      },
    },
  },
};
