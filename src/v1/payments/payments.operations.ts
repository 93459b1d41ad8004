import type { OperationsByTag } from '../../http/openapi';

/**
 * The payments area's `/v1` operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Payments: {
    description: 'Payments in minor units, paid by the payer on a hosted page (docs/alt-v1.md).',
    operations: {
      'POST /v1/payments': {
        id: 'createPayment',
        summary: 'Create a payment',
        description:
          'Creates a payment in minor units and answers the hosted page the payer pays on. See docs/alt-v1.md.',
      },
      'GET /v1/payments': {
        id: 'listPayments',
        summary: 'List payments',
        description: "The payments of the key's business, newest first.",
      },
      'GET /v1/payments/{id}': {
        id: 'getPayment',
        summary: 'Get a payment',
        description: 'One payment with its status.',
      },
    },
  },
};
