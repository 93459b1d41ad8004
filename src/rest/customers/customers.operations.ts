import type { OperationsByTag } from '../../http/openapi';

/**
 * The customers area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Customers: {
    description: 'Customers and their saved payment methods.',
    operations: {
      'POST /api/v1/business/customers': {
        id: 'createCustomer',
        summary: 'Create a customer',
        description:
          "Creates a customer of the business, identified by email, optionally with the merchant's own id and name.",
      },
      'GET /api/v1/business/customers': {
        id: 'listCustomers',
        summary: 'List customers',
        description: 'The customers of the business, newest first.',
      },
      'GET /api/v1/business/customers/{customerId}': {
        id: 'getCustomer',
        summary: 'Get a customer',
        description: 'One customer with saved cards, the default card and recent payments.',
      },
      'PATCH /api/v1/business/customers/{customerId}': {
        id: 'updateCustomer',
        summary: 'Update a customer',
        description: 'Changes the customer fields given in the body; fields left out keep their value.',
      },
      'POST /api/v1/business/customers/{customerId}/payment-methods': {
        id: 'addCustomerPaymentMethod',
        summary: 'Save a card for a customer',
        description:
          'Saves a card (card fields or a card token, which is consumed) on a customer; the first card becomes the default.',
      },
      'DELETE /api/v1/business/customers/{customerId}/payment-methods/{paymentMethodId}': {
        id: 'removeCustomerPaymentMethod',
        summary: 'Remove a saved card',
        description:
          'Deletes a saved card of a customer; if it was the default, the newest remaining card becomes the default.',
      },
      'POST /api/v1/business/customers/{customerId}/payment-methods/{paymentMethodId}/default': {
        id: 'setDefaultCustomerPaymentMethod',
        summary: 'Set the default card',
        description: "Makes a saved card the customer's default; answers the customer.",
      },
    },
  },
};
