import type { OperationsByTag } from '../../http/openapi';

/**
 * The sandbox area's REST operations by tag: the operationId, summary and description
 * its OpenAPI document gives each (src/http/openapi.ts).
 */
export const operations: OperationsByTag = {
  Sandbox: {
    description:
      'Test-mode controls: fund a wallet, settle or dispute a payment, move the clock, advance a payout (docs/sandbox.md).',
    operations: {
      'GET /api/v1/business/sandbox/clock': {
        id: 'getSandboxClock',
        summary: 'Get the test clock',
        description: "Test mode only: the time the business's test clock shows.",
      },
      'POST /api/v1/business/sandbox/clock/advance': {
        id: 'advanceSandboxClock',
        summary: 'Advance the test clock',
        description: 'Test mode only: moves the test clock forward and runs what falls due (schedules, expiries).',
      },
    },
  },
};
