import type { OperationsByTag } from '../../http/openapi';

/**
 * The checkout area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Checkout: {
    description: 'Hosted checkout sessions (docs/checkout.md).',
    operations: {
      'POST /api/v1/business/checkout/session': {
        id: 'createCheckoutSession',
        summary: 'Create a checkout session',
        description:
          'Creates a hosted checkout session and answers the URL to send the payer to. See docs/checkout.md.',
      },
      'POST /api/v1/business/payment/session': {
        id: 'createPaymentSession',
        summary: 'Create a checkout session (payment path)',
        description:
          'The same operation as createCheckoutSession at the path the interface document also gives it: creates a hosted checkout session.',
      },
      'GET /api/v1/business/checkout/sessions': {
        id: 'listCheckoutSessions',
        summary: 'List checkout sessions',
        description: 'The checkout sessions of the business, newest first.',
      },
      'GET /api/v1/business/checkout/sessions/{id}': {
        id: 'getCheckoutSession',
        summary: 'Get a checkout session',
        description: 'One checkout session with its status and payment.',
      },
    },
  },
};
