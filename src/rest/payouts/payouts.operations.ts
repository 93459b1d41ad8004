import type { OperationsByTag } from '../../http/openapi';

/**
 * The payouts area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Payouts: {
    description: 'Payouts to recipients: quotes, approvals, the payout PIN and batches (docs/payouts.md).',
    operations: {
      'POST /api/v1/business/payouts/recipients': {
        id: 'createPayoutRecipient',
        summary: 'Create a payout recipient',
        description: 'Saves a bank account or mobile-money wallet to pay out to. See docs/payouts.md.',
      },
      'GET /api/v1/business/payouts/recipients': {
        id: 'listPayoutRecipients',
        summary: 'List payout recipients',
        description: 'The saved payout recipients of the business, newest first.',
      },
      'GET /api/v1/business/payouts/recipients/{id}': {
        id: 'getPayoutRecipient',
        summary: 'Get a payout recipient',
        description: 'One payout recipient with its masked account details.',
      },
      'DELETE /api/v1/business/payouts/recipients/{id}': {
        id: 'deletePayoutRecipient',
        summary: 'Delete a payout recipient',
        description: 'Removes a saved recipient; payouts already made to it are kept.',
      },
      'POST /api/v1/business/payouts/quote': {
        id: 'createPayoutQuote',
        summary: 'Quote a payout',
        description:
          'Prices a payout before it is made: the exchange rate, the service fee and the amount the recipient receives, valid until `expiresAt`.',
      },
      'POST /api/v1/business/payouts': {
        id: 'createPayout',
        summary: 'Create a payout',
        description:
          'Sends money from a business wallet to a recipient, debiting the wallet in a balanced ledger transaction; may wait for approval or need the payout PIN.',
      },
      'GET /api/v1/business/payouts': {
        id: 'listPayouts',
        summary: 'List payouts',
        description: 'The payouts of the business, newest first, filtered by status.',
      },
      'GET /api/v1/business/payouts/{id}': {
        id: 'getPayout',
        summary: 'Get a payout',
        description: 'One payout with its status, quote and recipient.',
      },
      'POST /api/v1/business/payouts/{id}/cancel': {
        id: 'cancelPayout',
        summary: 'Cancel a payout',
        description: 'Cancels a payout not yet submitted to the rail and returns its amount to the wallet.',
      },
      'POST /api/v1/business/payouts/{id}/approve': {
        id: 'approvePayout',
        summary: 'Approve a payout',
        description: 'Approves a payout waiting for review, which then goes to the rail.',
      },
      'POST /api/v1/business/payouts/{id}/reject': {
        id: 'rejectPayout',
        summary: 'Reject a payout',
        description: 'Rejects a payout waiting for review, with a reason; its amount returns to the wallet.',
      },
      'POST /api/v1/business/payouts/batches': {
        id: 'createPayoutBatch',
        summary: 'Create a payout batch',
        description: 'Creates many payouts in one request, tracked together as a batch.',
      },
      'GET /api/v1/business/payouts/batches': {
        id: 'listPayoutBatches',
        summary: 'List payout batches',
        description: 'The payout batches of the business, newest first.',
      },
      'GET /api/v1/business/payouts/batches/{id}': {
        id: 'getPayoutBatch',
        summary: 'Get a payout batch',
        description: 'One payout batch with its counts by status.',
      },
      'GET /api/v1/business/payouts/batches/{id}/payouts': {
        id: 'listPayoutBatchPayouts',
        summary: "List a batch's payouts",
        description: 'The payouts made by one batch.',
      },
      'PUT /api/v1/business/payouts/pin': {
        id: 'setPayoutPin',
        summary: 'Set the payout PIN',
        description:
          'Sets or changes the payout PIN that payouts must carry; answers whether a PIN is set, never the PIN.',
      },
      'GET /api/v1/business/payouts/pin': {
        id: 'getPayoutPinStatus',
        summary: 'Get the payout PIN status',
        description: 'Whether a payout PIN is set and whether it is locked after wrong attempts.',
      },
    },
  },
  'Payout schedules': {
    description: 'Scheduled payouts and their runs.',
    operations: {
      'POST /api/v1/business/payouts/schedules': {
        id: 'createPayoutSchedule',
        summary: 'Create a payout schedule',
        description: 'Schedules payouts to a recipient: once, weekly, every two weeks or monthly.',
      },
      'GET /api/v1/business/payouts/schedules': {
        id: 'listPayoutSchedules',
        summary: 'List payout schedules',
        description: 'The payout schedules of the business, newest first.',
      },
      'GET /api/v1/business/payouts/schedules/{id}': {
        id: 'getPayoutSchedule',
        summary: 'Get a payout schedule',
        description: 'One payout schedule with its cadence and next run.',
      },
      'PATCH /api/v1/business/payouts/schedules/{id}': {
        id: 'updatePayoutSchedule',
        summary: 'Update a payout schedule',
        description:
          'Changes the fields given in the body of a payout schedule (amount, cadence, caps); fields left out keep their value.',
      },
      'POST /api/v1/business/payouts/schedules/{id}/pause': {
        id: 'pausePayoutSchedule',
        summary: 'Pause a payout schedule',
        description: "Stops a schedule's runs until it is resumed.",
      },
      'POST /api/v1/business/payouts/schedules/{id}/resume': {
        id: 'resumePayoutSchedule',
        summary: 'Resume a payout schedule',
        description: 'Restarts a paused schedule from its next due time.',
      },
      'POST /api/v1/business/payouts/schedules/{id}/cancel': {
        id: 'cancelPayoutSchedule',
        summary: 'Cancel a payout schedule',
        description: 'Ends a schedule for good; payouts already made are kept.',
      },
      'GET /api/v1/business/payouts/schedules/{id}/runs': {
        id: 'listPayoutScheduleRuns',
        summary: "List a schedule's runs",
        description: 'The runs of one payout schedule and the payout each made, newest first.',
      },
    },
  },
  // Its test-mode helpers, under the sandbox area's tag (src/rest/sandbox/sandbox.operations.ts).
  Sandbox: {
    operations: {
      'POST /api/v1/business/sandbox/payouts/{id}/advance': {
        id: 'advanceSandboxPayout',
        summary: 'Advance a test payout',
        description:
          'Test mode only: moves a payout one legal step (to SUBMITTED, SETTLED or FAILED) as the rail would.',
      },
    },
  },
};
