import type { OperationsByTag } from '../../http/openapi';

/**
 * The wallets area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Wallets: {
    description: 'The business wallets (one per currency and mode) and their ledger entries.',
    operations: {
      'GET /api/v1/business/wallets': {
        id: 'listWallets',
        summary: 'List wallets',
        description: 'The business wallets of the current mode, one per currency, with their balances.',
      },
      'GET /api/v1/business/wallets/{walletId}': {
        id: 'getWallet',
        summary: 'Get a wallet',
        description: 'One business wallet with its balance in major units and in minor units.',
      },
      'GET /api/v1/business/wallets/{walletId}/entries': {
        id: 'listWalletEntries',
        summary: "List a wallet's entries",
        description: 'The ledger entries of a wallet, newest first, paged with a cursor.',
      },
    },
  },
  // Its test-mode helpers, under the sandbox area's tag (src/rest/sandbox/sandbox.operations.ts).
  Sandbox: {
    operations: {
      'POST /api/v1/business/sandbox/wallets/fund': {
        id: 'fundSandboxWallet',
        summary: 'Fund a test wallet',
        description:
          'Test mode only: adds money to a business wallet, as a balanced ledger transaction. See docs/sandbox.md.',
      },
    },
  },
};
