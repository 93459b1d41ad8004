import type { OperationsByTag } from '../../http/openapi';

/**
 * The payments area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Payments: {
    description: 'Card charges, 3-D Secure and refunds (docs/payments.md).',
    operations: {
      'POST /api/v1/business/payment/charge': {
        id: 'createCharge',
        summary: 'Charge a card',
        description:
          'Charges a card (raw card fields, a card token or a saved payment method) server-to-server; may answer a payment waiting for 3-D Secure. See docs/payments.md.',
      },
      'GET /api/v1/business/payments': {
        id: 'listPayments',
        summary: 'List payments',
        description:
          'The payments of the business in the current mode, newest first, with the filters and paging of docs/payments.md.',
      },
      'GET /api/v1/business/payments/{id}': {
        id: 'getPayment',
        summary: 'Get a payment',
        description: 'One payment with its refunds and disputes.',
      },
      'POST /api/v1/business/payments/{id}/3ds/complete': {
        id: 'completeThreeDSecure',
        summary: 'Complete 3-D Secure',
        description: 'Finishes the 3-D Secure challenge of a payment waiting for it; answers the payment as it now is.',
      },
      'POST /api/v1/business/payments/{id}/refunds': {
        id: 'createRefund',
        summary: 'Refund a payment',
        description:
          'Refunds all or part of a completed payment; the refund is a balanced ledger transaction on the business wallet.',
      },
      'GET /api/v1/business/payments/{id}/refunds': {
        id: 'listRefunds',
        summary: "List a payment's refunds",
        description: 'The refunds of one payment, newest first.',
      },
    },
  },
  Disputes: {
    description: 'Disputes (chargebacks) opened against payments.',
    operations: {
      'GET /api/v1/business/disputes': {
        id: 'listDisputes',
        summary: 'List disputes',
        description: "The disputes opened against the business's payments, newest first.",
      },
      'GET /api/v1/business/disputes/{id}': {
        id: 'getDispute',
        summary: 'Get a dispute',
        description: 'One dispute with its payment, amount and status.',
      },
    },
  },
  // Its test-mode helpers, under the sandbox area's tag (src/rest/sandbox/sandbox.operations.ts).
  Sandbox: {
    operations: {
      'POST /api/v1/business/sandbox/payments/{id}/settle': {
        id: 'settleSandboxPayment',
        summary: 'Settle a test payment',
        description: 'Test mode only: settles a payment at once instead of waiting for the settlement run.',
      },
      'POST /api/v1/business/sandbox/payments/{id}/dispute': {
        id: 'disputeSandboxPayment',
        summary: 'Dispute a test payment',
        description: "Test mode only: opens a dispute against a payment, as a cardholder's bank would.",
      },
      'POST /api/v1/business/sandbox/disputes/{id}/resolve': {
        id: 'resolveSandboxDispute',
        summary: 'Resolve a test dispute',
        description: 'Test mode only: closes a dispute as won or lost.',
      },
    },
  },
};
