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
      'POST /api/v1/business/auth/token': {
        id: 'createApiToken',
        summary: 'Exchange an API key and secret for an API token',
        description:
          'Trades the business API key and secret (in the body) for a short-lived bearer token (JWT) usable on every authenticated operation. Needs no credential header. See docs/rest-api.md, Authentication.',
      },
      'POST /api/v1/business/regenerate-api-key': {
        id: 'regenerateApiKey',
        summary: 'Regenerate the API key',
        description:
          'Issues a new API key for the current mode and retires the old one at once; answers the new key and its hint.',
      },
    },
  },
  'Business settings': {
    description: 'The business configuration of each mode (its webhook URL).',
    operations: {
      'GET /api/v1/business/config': {
        id: 'getBusinessConfig',
        summary: 'Get the business configuration',
        description: 'The business settings of the current mode: its name and webhook URL.',
      },
      'PUT /api/v1/business/config': {
        id: 'updateBusinessConfig',
        summary: 'Update the business configuration',
        description: 'Sets the webhook URL of the current mode, where its events are POSTed.',
      },
    },
  },
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
  Payments: {
    description: 'Card charges, 3-D Secure and refunds (docs/payments.md).',
    operations: {
      'POST /api/v1/business/payment/charge': {
        id: 'createCharge',
        summary: 'Charge a card',
        description:
          'Charges a card (raw card fields, a card token or a saved payment method) server-to-server; may answer a payment waiting for 3-D Secure. See docs/payments.md.',
      },
      'GET /api/v1/business/payments': {
        id: 'listPayments',
        summary: 'List payments',
        description:
          'The payments of the business in the current mode, newest first, with the filters and paging of docs/payments.md.',
      },
      'GET /api/v1/business/payments/{id}': {
        id: 'getPayment',
        summary: 'Get a payment',
        description: 'One payment with its refunds and disputes.',
      },
      'POST /api/v1/business/payments/{id}/3ds/complete': {
        id: 'completeThreeDSecure',
        summary: 'Complete 3-D Secure',
        description: 'Finishes the 3-D Secure challenge of a payment waiting for it; answers the payment as it now is.',
      },
      'POST /api/v1/business/payments/{id}/refunds': {
        id: 'createRefund',
        summary: 'Refund a payment',
        description:
          'Refunds all or part of a completed payment; the refund is a balanced ledger transaction on the business wallet.',
      },
      'GET /api/v1/business/payments/{id}/refunds': {
        id: 'listRefunds',
        summary: "List a payment's refunds",
        description: 'The refunds of one payment, newest first.',
      },
    },
  },
  Disputes: {
    description: 'Disputes (chargebacks) opened against payments.',
    operations: {
      'GET /api/v1/business/disputes': {
        id: 'listDisputes',
        summary: 'List disputes',
        description: "The disputes opened against the business's payments, newest first.",
      },
      'GET /api/v1/business/disputes/{id}': {
        id: 'getDispute',
        summary: 'Get a dispute',
        description: 'One dispute with its payment, amount and status.',
      },
    },
  },
  'Card tokens': {
    description: 'Card tokens made in the browser with the publishable key.',
    operations: {
      'OPTIONS /api/v1/tokens': {
        id: 'preflightCardToken',
        summary: 'Card token CORS preflight',
        description:
          "The browser's CORS preflight of POST /api/v1/tokens: allows the call from any origin with the publishable key header.",
      },
      'POST /api/v1/tokens': {
        id: 'createCardToken',
        summary: 'Create a card token',
        description:
          "Turns card fields entered in the browser into a single-use token (`tok_…`), authenticated with the publishable key; the card number never reaches the merchant's server.",
      },
    },
  },
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
  Fraud: {
    description: 'Fraud rules and the blocklist screened on every charge.',
    operations: {
      'POST /api/v1/business/fraud/rules': {
        id: 'createFraudRule',
        summary: 'Create a fraud rule',
        description:
          'Adds a screening rule (card country, card BIN, email domain, amount above, card velocity) that every charge is checked against.',
      },
      'GET /api/v1/business/fraud/rules': {
        id: 'listFraudRules',
        summary: 'List fraud rules',
        description: 'The fraud rules of the business, in screening order.',
      },
      'GET /api/v1/business/fraud/rules/{id}': {
        id: 'getFraudRule',
        summary: 'Get a fraud rule',
        description: 'One fraud rule with its parameters.',
      },
      'PATCH /api/v1/business/fraud/rules/{id}': {
        id: 'updateFraudRule',
        summary: 'Update a fraud rule',
        description: "Changes a fraud rule's parameters, description or whether it is enabled.",
      },
      'DELETE /api/v1/business/fraud/rules/{id}': {
        id: 'deleteFraudRule',
        summary: 'Delete a fraud rule',
        description: 'Removes a fraud rule; later charges are no longer screened by it.',
      },
      'POST /api/v1/business/fraud/blocklist': {
        id: 'createBlocklistEntry',
        summary: 'Block a value',
        description:
          'Adds an email, card fingerprint or IP address to the blocklist; the same value twice answers 409.',
      },
      'GET /api/v1/business/fraud/blocklist': {
        id: 'listBlocklistEntries',
        summary: 'List blocklist entries',
        description: 'The blocklist of the business, newest first, filtered by `type`, paged with `page` and `limit`.',
      },
      'GET /api/v1/business/fraud/blocklist/{id}': {
        id: 'getBlocklistEntry',
        summary: 'Get a blocklist entry',
        description: 'One blocked value.',
      },
      'DELETE /api/v1/business/fraud/blocklist/{id}': {
        id: 'deleteBlocklistEntry',
        summary: 'Unblock a value',
        description: 'Removes an entry from the blocklist.',
      },
    },
  },
  Checkout: {
    description: 'Hosted checkout sessions (docs/checkout.md).',
    operations: {
      'POST /api/v1/business/checkout/session': {
        id: 'createCheckoutSession',
        summary: 'Create a checkout session',
        description:
          'Creates a hosted checkout session and answers the URL to send the payer to. See docs/checkout.md.',
      },
      'POST /api/v1/business/payment/session': {
        id: 'createPaymentSession',
        summary: 'Create a checkout session (payment path)',
        description:
          'The same operation as createCheckoutSession at the path the interface document also gives it: creates a hosted checkout session.',
      },
      'GET /api/v1/business/checkout/sessions': {
        id: 'listCheckoutSessions',
        summary: 'List checkout sessions',
        description: 'The checkout sessions of the business, newest first.',
      },
      'GET /api/v1/business/checkout/sessions/{id}': {
        id: 'getCheckoutSession',
        summary: 'Get a checkout session',
        description: 'One checkout session with its status and payment.',
      },
    },
  },
  'Payment links': {
    description: 'Reusable links to a hosted checkout.',
    operations: {
      'POST /api/v1/business/payment-links': {
        id: 'createPaymentLink',
        summary: 'Create a payment link',
        description: 'Creates a reusable link to a hosted checkout.',
      },
      'GET /api/v1/business/payment-links': {
        id: 'listPaymentLinks',
        summary: 'List payment links',
        description: 'The payment links of the business, newest first.',
      },
      'GET /api/v1/business/payment-links/{id}': {
        id: 'getPaymentLink',
        summary: 'Get a payment link',
        description: 'One payment link with its URL and status.',
      },
      'POST /api/v1/business/payment-links/{id}/deactivate': {
        id: 'deactivatePaymentLink',
        summary: 'Deactivate a payment link',
        description: 'Stops a payment link from taking payments; its page then says it is no longer active.',
      },
    },
  },
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
  'Recurring gifts': {
    description: 'Recurring gifts charged on a cadence to a saved card.',
    operations: {
      'GET /api/v1/business/recurring-gifts': {
        id: 'listRecurringGifts',
        summary: 'List recurring gifts',
        description: 'The recurring gifts of the business, newest first.',
      },
      'GET /api/v1/business/recurring-gifts/{id}': {
        id: 'getRecurringGift',
        summary: 'Get a recurring gift',
        description: 'One recurring gift with its cadence, next charge date and counts.',
      },
      'POST /api/v1/business/recurring-gifts/{id}/cancel': {
        id: 'cancelRecurringGift',
        summary: 'Cancel a recurring gift',
        description: 'Stops a recurring gift; no further charges are made.',
      },
      'POST /api/v1/business/recurring-gifts/{id}/resume': {
        id: 'resumeRecurringGift',
        summary: 'Resume a recurring gift',
        description: 'Restarts a recurring gift paused after failed charges.',
      },
    },
  },
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
  Collections: {
    description: 'Collections: money requested through a local channel (bank transfer, mobile money).',
    operations: {
      'GET /api/v1/business/collections/channels': {
        id: 'listCollectionChannels',
        summary: 'List collection channels',
        description: 'The local channels (bank transfer, mobile money) a collection can use, by country and currency.',
      },
      'POST /api/v1/business/collections': {
        id: 'createCollection',
        summary: 'Create a collection',
        description:
          'Requests money from a payer through a local channel and answers the instructions to show the payer. See docs/collections.md.',
      },
      'GET /api/v1/business/collections': {
        id: 'listCollections',
        summary: 'List collections',
        description: 'The collections of the business, newest first.',
      },
      'GET /api/v1/business/collections/{id}': {
        id: 'getCollection',
        summary: 'Get a collection',
        description: 'One collection with its status, instructions and expiry.',
      },
    },
  },
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
  Webhooks: {
    description: 'Webhook endpoints, their deliveries and redelivery (docs/webhooks.md).',
    operations: {
      'POST /api/v1/webhook-endpoints': {
        id: 'createWebhookEndpoint',
        summary: 'Create a webhook endpoint',
        description:
          "Registers a URL to receive the business's events, with the events it wants; answers the signing secret once. See docs/webhooks.md.",
      },
      'GET /api/v1/webhook-endpoints': {
        id: 'listWebhookEndpoints',
        summary: 'List webhook endpoints',
        description: 'The webhook endpoints of the business.',
      },
      'GET /api/v1/webhook-endpoints/{id}': {
        id: 'getWebhookEndpoint',
        summary: 'Get a webhook endpoint',
        description: 'One webhook endpoint with its events and status.',
      },
      'PATCH /api/v1/webhook-endpoints/{id}': {
        id: 'updateWebhookEndpoint',
        summary: 'Update a webhook endpoint',
        description: 'Changes the URL, events, description or status of a webhook endpoint.',
      },
      'DELETE /api/v1/webhook-endpoints/{id}': {
        id: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        description: 'Removes a webhook endpoint; no further events are sent to it.',
      },
      'GET /api/v1/webhook-endpoints/{id}/deliveries': {
        id: 'listWebhookEndpointDeliveries',
        summary: "List an endpoint's deliveries",
        description: 'The deliveries of events to one webhook endpoint, newest first, with their attempts and answers.',
      },
      'POST /api/v1/webhook-deliveries/{id}/redeliver': {
        id: 'redeliverWebhookDelivery',
        summary: 'Redeliver a webhook delivery',
        description: 'Sends the event of a delivery to its endpoint again.',
      },
      'GET /api/v1/business/config/webhook-deliveries': {
        id: 'listWebhookUrlDeliveries',
        summary: 'List webhook URL deliveries',
        description: 'The deliveries of events to the business webhook URL of the configuration, newest first.',
      },
      'POST /api/v1/business/config/webhook-deliveries/{deliveryId}/redeliver': {
        id: 'redeliverWebhookUrlDelivery',
        summary: 'Redeliver to the webhook URL',
        description: 'Sends the event of a delivery to the business webhook URL again.',
      },
      'POST /api/v1/treasury/webhook-endpoints': {
        id: 'createTreasuryWebhookEndpoint',
        summary: 'Create a treasury webhook endpoint',
        description:
          "Registers a URL to receive the treasury partner's events; answers the endpoint and its signing secret once.",
      },
      'GET /api/v1/treasury/webhook-endpoints': {
        id: 'listTreasuryWebhookEndpoints',
        summary: 'List treasury webhook endpoints',
        description: 'The webhook endpoints of the treasury partner.',
      },
      'GET /api/v1/treasury/webhook-endpoints/{id}': {
        id: 'getTreasuryWebhookEndpoint',
        summary: 'Get a treasury webhook endpoint',
        description: 'One treasury webhook endpoint.',
      },
      'PATCH /api/v1/treasury/webhook-endpoints/{id}': {
        id: 'updateTreasuryWebhookEndpoint',
        summary: 'Update a treasury webhook endpoint',
        description: 'Changes the URL, events, description or API version of a treasury webhook endpoint.',
      },
      'DELETE /api/v1/treasury/webhook-endpoints/{id}': {
        id: 'deleteTreasuryWebhookEndpoint',
        summary: 'Delete a treasury webhook endpoint',
        description: 'Removes a treasury webhook endpoint.',
      },
      'GET /api/v1/treasury/webhook-endpoints/{id}/deliveries': {
        id: 'listTreasuryWebhookEndpointDeliveries',
        summary: "List a treasury endpoint's deliveries",
        description: 'The deliveries of events to one treasury webhook endpoint, newest first.',
      },
      'POST /api/v1/treasury/webhook-endpoints/{id}/rotate-secret': {
        id: 'rotateTreasuryWebhookEndpointSecret',
        summary: 'Rotate a signing secret',
        description: 'Issues a new signing secret for a treasury webhook endpoint and answers it once.',
      },
    },
  },
  Events: {
    description: 'The event log: every event of the business, and replaying one to its webhooks.',
    operations: {
      'GET /api/v1/events': {
        id: 'listEvents',
        summary: 'List events',
        description: 'The event log of the business, newest first, filtered by type, paged with `page` and `limit`.',
      },
      'GET /api/v1/events/{id}': {
        id: 'getEvent',
        summary: 'Get an event',
        description: 'One event with the object it carries.',
      },
      'POST /api/v1/events/{id}/replay': {
        id: 'replayEvent',
        summary: 'Replay an event',
        description:
          'Sends an event again as a new delivery: to the endpoint named by `endpointId`, or without it to the business webhook URL.',
      },
    },
  },
  Sandbox: {
    description:
      'Test-mode controls: fund a wallet, settle or dispute a payment, move the clock, advance a payout (docs/sandbox.md).',
    operations: {
      'POST /api/v1/business/sandbox/wallets/fund': {
        id: 'fundSandboxWallet',
        summary: 'Fund a test wallet',
        description:
          'Test mode only: adds money to a business wallet, as a balanced ledger transaction. See docs/sandbox.md.',
      },
      'POST /api/v1/business/sandbox/payments/{id}/settle': {
        id: 'settleSandboxPayment',
        summary: 'Settle a test payment',
        description: 'Test mode only: settles a payment at once instead of waiting for the settlement run.',
      },
      'POST /api/v1/business/sandbox/payments/{id}/dispute': {
        id: 'disputeSandboxPayment',
        summary: 'Dispute a test payment',
        description: "Test mode only: opens a dispute against a payment, as a cardholder's bank would.",
      },
      'POST /api/v1/business/sandbox/disputes/{id}/resolve': {
        id: 'resolveSandboxDispute',
        summary: 'Resolve a test dispute',
        description: 'Test mode only: closes a dispute as won or lost.',
      },
      'POST /api/v1/business/sandbox/recurring-gifts/{id}/charge-now': {
        id: 'chargeSandboxRecurringGiftNow',
        summary: 'Charge a test recurring gift now',
        description: "Test mode only: makes a recurring gift's next charge at once.",
      },
      'POST /api/v1/business/sandbox/payouts/{id}/advance': {
        id: 'advanceSandboxPayout',
        summary: 'Advance a test payout',
        description:
          'Test mode only: moves a payout one legal step (to SUBMITTED, SETTLED or FAILED) as the rail would.',
      },
      'POST /api/v1/business/sandbox/collections/{id}/pay': {
        id: 'paySandboxCollection',
        summary: 'Pay a test collection',
        description:
          'Test mode only: the payer pays `amount` (minor units) into the collection; answers the collection as it then is.',
      },
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
