import { OperationArea } from '../http/openapi';

/** The operations of the `/v1` surface by area (tag) with their operationIds (src/http/openapi.ts). */
export const V1_OPERATIONS: Record<string, OperationArea> = {
  Payments: {
    description: 'Payments in minor units, paid by the payer on a hosted page (docs/alt-v1.md).',
    operations: {
      'POST /v1/payments': 'createPayment',
      'GET /v1/payments': 'listPayments',
      'GET /v1/payments/{id}': 'getPayment',
    },
  },
  Rates: {
    description: 'Exchange rates.',
    operations: { 'GET /v1/rates': 'listRates' },
  },
  Transfers: {
    description: 'Transfers between currencies.',
    operations: {
      'POST /v1/transfers': 'createTransfer',
      'GET /v1/transfers/{id}': 'getTransfer',
    },
  },
};
