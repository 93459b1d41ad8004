import type { OperationsByTag } from '../../http/openapi';

/**
 * The invoices area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Invoices: {
    description: 'Invoices: drafted, finalised, sent, paid or voided.',
    operations: {
      'POST /api/v1/business/invoices': {
        id: 'createInvoice',
        summary: 'Create an invoice',
        description: 'Creates a draft invoice for a customer with line items and a due date.',
      },
      'GET /api/v1/business/invoices': {
        id: 'listInvoices',
        summary: 'List invoices',
        description: 'The invoices of the business, newest first, filtered by status.',
      },
      'GET /api/v1/business/invoices/{id}': {
        id: 'getInvoice',
        summary: 'Get an invoice',
        description: 'One invoice with its line items, totals and status.',
      },
      'POST /api/v1/business/invoices/{id}/finalize': {
        id: 'finalizeInvoice',
        summary: 'Finalize an invoice',
        description: 'Turns a draft invoice into an open one with a payment page; its lines can no longer change.',
      },
      'POST /api/v1/business/invoices/{id}/send': {
        id: 'sendInvoice',
        summary: 'Send an invoice',
        description:
          'The same operation as finalizeInvoice, at the path the interface document also gives it: opens the invoice with its payment page.',
      },
      'POST /api/v1/business/invoices/{id}/void': {
        id: 'voidInvoice',
        summary: 'Void an invoice',
        description: 'Cancels an open invoice; it can no longer be paid.',
      },
    },
  },
};
