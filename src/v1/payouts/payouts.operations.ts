import type { OperationsByTag } from '../../http/openapi';

/**
 * The payouts area's `/v1` operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Rates: {
    description: 'The exchange rates and fees transfers get.',
    operations: {
      'GET /v1/rates': {
        id: 'listRates',
        summary: 'List exchange rates',
        description: 'The exchange rate a transfer gets now and the transfer fee.',
      },
    },
  },
  Transfers: {
    description: 'Transfers from the business wallet to a bank account (payouts underneath).',
    operations: {
      'POST /v1/transfers': {
        id: 'createTransfer',
        summary: 'Create a transfer',
        description:
          'Moves money from the business wallet to a bank account, in the same or another currency: a payout with its quote (the rate and fee of listRates). See docs/alt-v1.md.',
      },
      'GET /v1/transfers/{id}': {
        id: 'getTransfer',
        summary: 'Get a transfer',
        description: 'One transfer with its status.',
      },
    },
  },
};
