import { OperationArea } from '../http/openapi';

/**
 * The operations of the REST surface (`/api/v1`) by area: the area is the operation's tag and
 * each operation's name its `operationId` (src/http/openapi.ts). A new route gets its line here;
 * test/openapi.test.ts fails until it has one. The documented unprefixed aliases are not
 * operations of their own (their canonical path is).
 */
export const REST_OPERATIONS: Record<string, OperationArea> = {
  Identity: {
    description: 'API tokens and API keys of a business (docs/rest-api.md, Authentication).',
    operations: {
      'POST /api/v1/business/auth/token': 'createApiToken',
      'POST /api/v1/business/regenerate-api-key': 'regenerateApiKey',
    },
  },
  'Business settings': {
    description: 'The business configuration: webhook URL, branding, payout approvals.',
    operations: {
      'GET /api/v1/business/config': 'getBusinessConfig',
      'PUT /api/v1/business/config': 'updateBusinessConfig',
    },
  },
  Wallets: {
    description: 'The business wallets (one per currency and mode) and their ledger entries.',
    operations: {
      'GET /api/v1/business/wallets': 'listWallets',
      'GET /api/v1/business/wallets/{walletId}': 'getWallet',
      'GET /api/v1/business/wallets/{walletId}/entries': 'listWalletEntries',
    },
  },
  Payments: {
    description: 'Card charges, 3-D Secure and refunds (docs/payments.md).',
    operations: {
      'POST /api/v1/business/payment/charge': 'createCharge',
      'GET /api/v1/business/payments': 'listPayments',
      'GET /api/v1/business/payments/{id}': 'getPayment',
      'POST /api/v1/business/payments/{id}/3ds/complete': 'completeThreeDSecure',
      'POST /api/v1/business/payments/{id}/refunds': 'createRefund',
      'GET /api/v1/business/payments/{id}/refunds': 'listRefunds',
    },
  },
  Disputes: {
    description: 'Disputes (chargebacks) opened against payments.',
    operations: {
      'GET /api/v1/business/disputes': 'listDisputes',
      'GET /api/v1/business/disputes/{id}': 'getDispute',
    },
  },
  'Card tokens': {
    description: 'Card tokens made in the browser with the publishable key.',
    operations: {
      'OPTIONS /api/v1/tokens': 'preflightCardToken',
      'POST /api/v1/tokens': 'createCardToken',
    },
  },
  Customers: {
    description: 'Customers and their saved payment methods.',
    operations: {
      'POST /api/v1/business/customers': 'createCustomer',
      'GET /api/v1/business/customers': 'listCustomers',
      'GET /api/v1/business/customers/{customerId}': 'getCustomer',
      'PATCH /api/v1/business/customers/{customerId}': 'updateCustomer',
      'POST /api/v1/business/customers/{customerId}/payment-methods': 'addCustomerPaymentMethod',
      'DELETE /api/v1/business/customers/{customerId}/payment-methods/{paymentMethodId}': 'removeCustomerPaymentMethod',
      'POST /api/v1/business/customers/{customerId}/payment-methods/{paymentMethodId}/default': 'setDefaultCustomerPaymentMethod',
    },
  },
  Fraud: {
    description: 'Fraud rules and the blocklist screened on every charge.',
    operations: {
      'POST /api/v1/business/fraud/rules': 'createFraudRule',
      'GET /api/v1/business/fraud/rules': 'listFraudRules',
      'GET /api/v1/business/fraud/rules/{id}': 'getFraudRule',
      'PATCH /api/v1/business/fraud/rules/{id}': 'updateFraudRule',
      'DELETE /api/v1/business/fraud/rules/{id}': 'deleteFraudRule',
      'POST /api/v1/business/fraud/blocklist': 'createBlocklistEntry',
      'GET /api/v1/business/fraud/blocklist': 'listBlocklistEntries',
      'GET /api/v1/business/fraud/blocklist/{id}': 'getBlocklistEntry',
      'DELETE /api/v1/business/fraud/blocklist/{id}': 'deleteBlocklistEntry',
    },
  },
  Checkout: {
    description: 'Hosted checkout sessions (docs/checkout.md).',
    operations: {
      'POST /api/v1/business/checkout/session': 'createCheckoutSession',
      'POST /api/v1/business/payment/session': 'createPaymentSession',
      'GET /api/v1/business/checkout/sessions': 'listCheckoutSessions',
      'GET /api/v1/business/checkout/sessions/{id}': 'getCheckoutSession',
    },
  },
  'Payment links': {
    description: 'Reusable links to a hosted checkout.',
    operations: {
      'POST /api/v1/business/payment-links': 'createPaymentLink',
      'GET /api/v1/business/payment-links': 'listPaymentLinks',
      'GET /api/v1/business/payment-links/{id}': 'getPaymentLink',
      'POST /api/v1/business/payment-links/{id}/deactivate': 'deactivatePaymentLink',
    },
  },
  Invoices: {
    description: 'Invoices: drafted, finalised, sent, paid or voided.',
    operations: {
      'POST /api/v1/business/invoices': 'createInvoice',
      'GET /api/v1/business/invoices': 'listInvoices',
      'GET /api/v1/business/invoices/{id}': 'getInvoice',
      'POST /api/v1/business/invoices/{id}/finalize': 'finalizeInvoice',
      'POST /api/v1/business/invoices/{id}/send': 'sendInvoice',
      'POST /api/v1/business/invoices/{id}/void': 'voidInvoice',
    },
  },
  'Recurring gifts': {
    description: 'Recurring gifts charged on a cadence to a saved card.',
    operations: {
      'GET /api/v1/business/recurring-gifts': 'listRecurringGifts',
      'GET /api/v1/business/recurring-gifts/{id}': 'getRecurringGift',
      'POST /api/v1/business/recurring-gifts/{id}/cancel': 'cancelRecurringGift',
      'POST /api/v1/business/recurring-gifts/{id}/resume': 'resumeRecurringGift',
    },
  },
  Payouts: {
    description: 'Payouts to recipients: quotes, approvals, the payout PIN and batches (docs/payouts.md).',
    operations: {
      'POST /api/v1/business/payouts/recipients': 'createPayoutRecipient',
      'GET /api/v1/business/payouts/recipients': 'listPayoutRecipients',
      'GET /api/v1/business/payouts/recipients/{id}': 'getPayoutRecipient',
      'DELETE /api/v1/business/payouts/recipients/{id}': 'deletePayoutRecipient',
      'POST /api/v1/business/payouts/quote': 'createPayoutQuote',
      'POST /api/v1/business/payouts': 'createPayout',
      'GET /api/v1/business/payouts': 'listPayouts',
      'GET /api/v1/business/payouts/{id}': 'getPayout',
      'POST /api/v1/business/payouts/{id}/cancel': 'cancelPayout',
      'POST /api/v1/business/payouts/{id}/approve': 'approvePayout',
      'POST /api/v1/business/payouts/{id}/reject': 'rejectPayout',
      'POST /api/v1/business/payouts/batches': 'createPayoutBatch',
      'GET /api/v1/business/payouts/batches': 'listPayoutBatches',
      'GET /api/v1/business/payouts/batches/{id}': 'getPayoutBatch',
      'GET /api/v1/business/payouts/batches/{id}/payouts': 'listPayoutBatchPayouts',
      'PUT /api/v1/business/payouts/pin': 'setPayoutPin',
      'GET /api/v1/business/payouts/pin': 'getPayoutPinStatus',
    },
  },
  'Payout schedules': {
    description: 'Scheduled payouts and their runs.',
    operations: {
      'POST /api/v1/business/payouts/schedules': 'createPayoutSchedule',
      'GET /api/v1/business/payouts/schedules': 'listPayoutSchedules',
      'GET /api/v1/business/payouts/schedules/{id}': 'getPayoutSchedule',
      'PATCH /api/v1/business/payouts/schedules/{id}': 'updatePayoutSchedule',
      'POST /api/v1/business/payouts/schedules/{id}/pause': 'pausePayoutSchedule',
      'POST /api/v1/business/payouts/schedules/{id}/resume': 'resumePayoutSchedule',
      'POST /api/v1/business/payouts/schedules/{id}/cancel': 'cancelPayoutSchedule',
      'GET /api/v1/business/payouts/schedules/{id}/runs': 'listPayoutScheduleRuns',
    },
  },
  Collections: {
    description: 'Collections: money requested through a local channel (bank transfer, mobile money).',
    operations: {
      'GET /api/v1/business/collections/channels': 'listCollectionChannels',
      'POST /api/v1/business/collections': 'createCollection',
      'GET /api/v1/business/collections': 'listCollections',
      'GET /api/v1/business/collections/{id}': 'getCollection',
    },
  },
  Treasury: {
    description: 'Treasury: end users, their KYC, wallets, deposit instructions and payouts (docs/treasury.md).',
    operations: {
      'POST /api/v1/treasury/users': 'createEndUser',
      'GET /api/v1/treasury/users': 'listEndUsers',
      'GET /api/v1/treasury/users/{id}': 'getEndUser',
      'POST /api/v1/treasury/users/{id}/kyc': 'submitKyc',
      'GET /api/v1/treasury/users/{id}/kyc': 'getKyc',
      'POST /api/v1/treasury/users/{id}/wallets': 'createTreasuryWallet',
      'GET /api/v1/treasury/users/{id}/wallets': 'listTreasuryWallets',
      'GET /api/v1/treasury/users/{id}/wallets/{walletId}': 'getTreasuryWallet',
      'GET /api/v1/treasury/users/{id}/wallets/{walletId}/deposit_instructions': 'getDepositInstructions',
      'POST /api/v1/treasury/payouts': 'createTreasuryPayout',
      'GET /api/v1/treasury/payouts': 'listTreasuryPayouts',
      'GET /api/v1/treasury/payouts/{id}': 'getTreasuryPayout',
      'POST /api/v1/treasury/payouts/{id}/cancel': 'cancelTreasuryPayout',
    },
  },
  Webhooks: {
    description: 'Webhook endpoints, their deliveries and redelivery (docs/webhooks.md).',
    operations: {
      'POST /api/v1/webhook-endpoints': 'createWebhookEndpoint',
      'GET /api/v1/webhook-endpoints': 'listWebhookEndpoints',
      'GET /api/v1/webhook-endpoints/{id}': 'getWebhookEndpoint',
      'PATCH /api/v1/webhook-endpoints/{id}': 'updateWebhookEndpoint',
      'DELETE /api/v1/webhook-endpoints/{id}': 'deleteWebhookEndpoint',
      'GET /api/v1/webhook-endpoints/{id}/deliveries': 'listWebhookEndpointDeliveries',
      'POST /api/v1/webhook-deliveries/{id}/redeliver': 'redeliverWebhookDelivery',
      'GET /api/v1/business/config/webhook-deliveries': 'listWebhookUrlDeliveries',
      'POST /api/v1/business/config/webhook-deliveries/{deliveryId}/redeliver': 'redeliverWebhookUrlDelivery',
      'POST /api/v1/treasury/webhook-endpoints': 'createTreasuryWebhookEndpoint',
      'GET /api/v1/treasury/webhook-endpoints': 'listTreasuryWebhookEndpoints',
      'GET /api/v1/treasury/webhook-endpoints/{id}': 'getTreasuryWebhookEndpoint',
      'PATCH /api/v1/treasury/webhook-endpoints/{id}': 'updateTreasuryWebhookEndpoint',
      'DELETE /api/v1/treasury/webhook-endpoints/{id}': 'deleteTreasuryWebhookEndpoint',
      'GET /api/v1/treasury/webhook-endpoints/{id}/deliveries': 'listTreasuryWebhookEndpointDeliveries',
      'POST /api/v1/treasury/webhook-endpoints/{id}/rotate-secret': 'rotateTreasuryWebhookEndpointSecret',
    },
  },
  Events: {
    description: 'The event log: every event of the business, and replaying one to its webhooks.',
    operations: {
      'GET /api/v1/events': 'listEvents',
      'GET /api/v1/events/{id}': 'getEvent',
      'POST /api/v1/events/{id}/replay': 'replayEvent',
    },
  },
  Sandbox: {
    description: 'Test-mode controls: fund a wallet, settle or dispute a payment, move the clock, advance a payout (docs/sandbox.md).',
    operations: {
      'POST /api/v1/business/sandbox/wallets/fund': 'fundSandboxWallet',
      'POST /api/v1/business/sandbox/payments/{id}/settle': 'settleSandboxPayment',
      'POST /api/v1/business/sandbox/payments/{id}/dispute': 'disputeSandboxPayment',
      'POST /api/v1/business/sandbox/disputes/{id}/resolve': 'resolveSandboxDispute',
      'POST /api/v1/business/sandbox/recurring-gifts/{id}/charge-now': 'chargeSandboxRecurringGiftNow',
      'POST /api/v1/business/sandbox/payouts/{id}/advance': 'advanceSandboxPayout',
      'POST /api/v1/business/sandbox/collections/{id}/pay': 'paySandboxCollection',
      'GET /api/v1/business/sandbox/clock': 'getSandboxClock',
      'POST /api/v1/business/sandbox/clock/advance': 'advanceSandboxClock',
      'POST /api/v1/treasury/users/{id}/kyc/sandbox-approve': 'approveSandboxKyc',
      'POST /api/v1/treasury/users/{id}/kyc/sandbox-reject': 'rejectSandboxKyc',
      'POST /api/v1/treasury/sandbox/users/{id}/wallets/{walletId}/deposit': 'depositToSandboxTreasuryWallet',
    },
  },
};
