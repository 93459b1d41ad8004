import { OperationArea } from '../http/openapi';

/** The operations of the `/v1` surface by area (tag) with their operationIds (src/http/openapi.ts). */
export const V1_OPERATIONS: Record<string, OperationArea> = {
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
