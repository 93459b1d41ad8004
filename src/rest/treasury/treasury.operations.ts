import type { OperationsByTag } from '../../http/openapi';

/**
 * The treasury area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Treasury: {
    description: 'Treasury: end users, their KYC, wallets, deposit instructions and payouts (docs/treasury.md).',
    operations: {
      'POST /api/v1/treasury/users': {
        id: 'createEndUser',
        summary: 'Create an end user',
        description: 'Creates an end user of a treasury partner. See docs/treasury.md.',
      },
      'GET /api/v1/treasury/users': {
        id: 'listEndUsers',
        summary: 'List end users',
        description: 'The end users of the treasury partner, newest first.',
      },
      'GET /api/v1/treasury/users/{id}': {
        id: 'getEndUser',
        summary: 'Get an end user',
        description: 'One end user with its KYC status.',
      },
      'POST /api/v1/treasury/users/{id}/kyc': {
        id: 'submitKyc',
        summary: 'Submit KYC',
        description: "Submits an end user's identity details for KYC review.",
      },
      'GET /api/v1/treasury/users/{id}/kyc': {
        id: 'getKyc',
        summary: 'Get KYC',
        description: 'The KYC record of an end user and its status.',
      },
      'POST /api/v1/treasury/users/{id}/wallets': {
        id: 'createTreasuryWallet',
        summary: 'Create a treasury wallet',
        description: 'Opens a wallet in a currency for an end user whose KYC is approved.',
      },
      'GET /api/v1/treasury/users/{id}/wallets': {
        id: 'listTreasuryWallets',
        summary: "List an end user's wallets",
        description: 'The wallets of one end user.',
      },
      'GET /api/v1/treasury/users/{id}/wallets/{walletId}': {
        id: 'getTreasuryWallet',
        summary: 'Get a treasury wallet',
        description: 'One wallet of an end user with its balance.',
      },
      'GET /api/v1/treasury/users/{id}/wallets/{walletId}/deposit_instructions': {
        id: 'getDepositInstructions',
        summary: 'Get deposit instructions',
        description:
          'How to pay into a treasury wallet: bank details or a crypto address, by the kind of wallet (fields of the other kind are null).',
      },
      'POST /api/v1/treasury/payouts': {
        id: 'createTreasuryPayout',
        summary: 'Create a treasury payout',
        description:
          "Pays out from an end user's wallet to a bank account or address, debiting the wallet in a balanced ledger transaction.",
      },
      'GET /api/v1/treasury/payouts': {
        id: 'listTreasuryPayouts',
        summary: 'List treasury payouts',
        description: 'The treasury payouts of the partner, newest first.',
      },
      'GET /api/v1/treasury/payouts/{id}': {
        id: 'getTreasuryPayout',
        summary: 'Get a treasury payout',
        description: 'One treasury payout with its status.',
      },
      'POST /api/v1/treasury/payouts/{id}/cancel': {
        id: 'cancelTreasuryPayout',
        summary: 'Cancel a treasury payout',
        description: 'Cancels a treasury payout not yet sent and returns its amount to the wallet.',
      },
    },
  },
  // Its test-mode helpers, under the sandbox area's tag (src/rest/sandbox/sandbox.operations.ts).
  Sandbox: {
    operations: {
      'POST /api/v1/treasury/users/{id}/kyc/sandbox-approve': {
        id: 'approveSandboxKyc',
        summary: 'Approve test KYC',
        description: "Test mode only: approves an end user's KYC as the reviewer would.",
      },
      'POST /api/v1/treasury/users/{id}/kyc/sandbox-reject': {
        id: 'rejectSandboxKyc',
        summary: 'Reject test KYC',
        description: "Test mode only: rejects an end user's KYC with a reason.",
      },
      'POST /api/v1/treasury/sandbox/users/{id}/wallets/{walletId}/deposit': {
        id: 'depositToSandboxTreasuryWallet',
        summary: 'Deposit into a test treasury wallet',
        description: "Test mode only: credits an end user's wallet as an incoming deposit would.",
      },
    },
  },
};
