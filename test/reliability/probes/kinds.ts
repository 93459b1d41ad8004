/**
 * The kinds of tenant id the probes know: where each kind's rows live, and where each kind appears
 * in a REST path, a query parameter, a request body or a GraphQL argument. A parameter the tables
 * below cannot place is a coverage failure (`unknownSlots`), so a route or field with a new kind of
 * id fails the suite until its kind is added here.
 */

export type Kind =
  | 'merchant_wallet'
  | 'merchant_pending_account'
  | 'end_user_wallet_account'
  | 'webhook_endpoint'
  | 'treasury_webhook_endpoint'
  | 'endpoint_delivery'
  | 'url_delivery'
  | 'treasury_delivery'
  | 'event'
  | 'payment'
  | 'dispute'
  | 'refund'
  | 'customer'
  | 'payment_method'
  | 'fraud_rule'
  | 'blocklist_entry'
  | 'checkout_session'
  | 'payment_link'
  | 'invoice'
  | 'recurring_gift'
  | 'payout_schedule'
  | 'payout_recipient'
  | 'payout_quote'
  | 'payout'
  | 'payout_batch'
  | 'collection'
  | 'treasury_end_user'
  | 'treasury_kyc_check'
  | 'treasury_wallet'
  | 'treasury_payout'
  | 'v1_payment'
  | 'v1_transfer'
  | 'membership'
  | 'team_invitation';

/**
 * Where a kind's rows are: a table with `business_id` (and `livemode`, unless `modeless`), narrowed
 * by `where`; a kind whose rows reference another's comes after it (the live twins are made in this order). The probes read each tenant's ids of every kind from here, so an id a probe sends is
 * known to be a row of that kind, of that tenant, of that mode.
 */
export const KINDS: Record<Kind, { table: string; where?: string; modeless?: boolean }> = {
  merchant_wallet: { table: 'ledger_accounts', where: "kind = 'merchant_wallet'" },
  // Other accounts of the tenant in the same table: no route takes them, but a wallet route must not either.
  merchant_pending_account: { table: 'ledger_accounts', where: "kind = 'merchant_pending'" },
  end_user_wallet_account: { table: 'ledger_accounts', where: "kind = 'end_user_wallet'" },
  webhook_endpoint: { table: 'webhook_endpoints', where: "registry = 'merchant'" },
  treasury_webhook_endpoint: { table: 'webhook_endpoints', where: "registry = 'treasury'" },
  event: { table: 'events' },
  endpoint_delivery: { table: 'webhook_deliveries', where: "target = 'endpoint' AND partner_id IS NULL" },
  url_delivery: { table: 'webhook_deliveries', where: "target = 'webhook_url'" },
  treasury_delivery: { table: 'webhook_deliveries', where: "target = 'endpoint' AND partner_id IS NOT NULL" },
  payment: { table: 'payments' },
  dispute: { table: 'disputes' },
  refund: { table: 'refunds' },
  customer: { table: 'customers' },
  payment_method: { table: 'payment_methods' },
  fraud_rule: { table: 'fraud_rules' },
  blocklist_entry: { table: 'fraud_blocklist' },
  checkout_session: { table: 'checkout_sessions' },
  payment_link: { table: 'payment_links' },
  invoice: { table: 'invoices' },
  recurring_gift: { table: 'recurring_gifts' },
  payout_schedule: { table: 'payout_schedules' },
  payout_recipient: { table: 'payout_recipients' },
  payout_quote: { table: 'payout_quotes' },
  payout: { table: 'payouts' },
  payout_batch: { table: 'payout_batches' },
  collection: { table: 'collections' },
  treasury_end_user: { table: 'treasury_end_users' },
  treasury_kyc_check: { table: 'treasury_kyc_checks' },
  treasury_wallet: { table: 'treasury_wallets' },
  treasury_payout: { table: 'treasury_payouts' },
  v1_payment: { table: 'v1_payments' },
  v1_transfer: { table: 'v1_transfers' },
  membership: { table: 'memberships', modeless: true },
  team_invitation: { table: 'team_invitations', modeless: true },
};

/**
 * A REST path parameter's kind, from the path up to it (`/api` dropped, earlier parameters as
 * `{}`): the first rule whose pattern matches the end of that prefix.
 */
export const PATH_RULES: Array<[RegExp, Kind]> = [
  [/\/business\/wallets\/\{walletId\}$/, 'merchant_wallet'],
  [/\/treasury\/webhook-endpoints\/\{id\}$/, 'treasury_webhook_endpoint'],
  [/^\/v1\/webhook-endpoints\/\{id\}$/, 'webhook_endpoint'],
  [/\/business\/config\/webhook-deliveries\/\{deliveryId\}$/, 'url_delivery'],
  [/^\/v1\/webhook-deliveries\/\{id\}$/, 'endpoint_delivery'],
  [/^\/v1\/events\/\{id\}$/, 'event'],
  [/^\/v1\/business\/(sandbox\/)?payments\/\{id\}$/, 'payment'],
  [/^\/v1\/business\/(sandbox\/)?disputes\/\{id\}$/, 'dispute'],
  [/\/business\/customers\/\{customerId\}$/, 'customer'],
  [/\/business\/customers\/\{\}\/payment-methods\/\{paymentMethodId\}$/, 'payment_method'],
  [/\/business\/fraud\/rules\/\{id\}$/, 'fraud_rule'],
  [/\/business\/fraud\/blocklist\/\{id\}$/, 'blocklist_entry'],
  [/\/business\/checkout\/sessions\/\{id\}$/, 'checkout_session'],
  [/\/business\/payment-links\/\{id\}$/, 'payment_link'],
  [/\/business\/invoices\/\{id\}$/, 'invoice'],
  [/\/business\/(sandbox\/)?recurring-gifts\/\{id\}$/, 'recurring_gift'],
  [/\/business\/payouts\/schedules\/\{id\}$/, 'payout_schedule'],
  [/\/business\/payouts\/recipients\/\{id\}$/, 'payout_recipient'],
  [/\/business\/payouts\/batches\/\{id\}$/, 'payout_batch'],
  [/\/business\/(sandbox\/)?payouts\/\{id\}$/, 'payout'],
  [/\/business\/(sandbox\/)?collections\/\{id\}$/, 'collection'],
  [/\/treasury\/(sandbox\/)?users\/\{id\}$/, 'treasury_end_user'],
  [/\/treasury\/(sandbox\/)?users\/\{\}\/wallets\/\{walletId\}$/, 'treasury_wallet'],
  [/\/treasury\/payouts\/\{id\}$/, 'treasury_payout'],
  [/^\/v1\/payments\/\{id\}$/, 'v1_payment'],
  [/^\/v1\/transfers\/\{id\}$/, 'v1_transfer'],
];

/**
 * A query parameter or body field that carries a tenant id, by operation path (pattern) and field
 * path (dotted, `[]` for array items). `null` kind: not a tenant id (with the reason), never substituted.
 */
export const FIELD_RULES: Array<{ path: RegExp; field: string; kind: Kind | null; reason?: string }> = [
  { path: /\/events\/\{id\}\/replay$/, field: 'endpointId', kind: 'webhook_endpoint' },
  { path: /\/payment\/charge$/, field: 'paymentMethodId', kind: 'payment_method' },
  { path: /\/business\/payments$/, field: 'customerId', kind: 'customer' },
  { path: /\/business\/recurring-gifts$/, field: 'paymentLinkId', kind: 'payment_link' },
  { path: /\/payouts\/schedules(\/\{id\})?$/, field: 'payload.recipientId', kind: 'payout_recipient' },
  { path: /\/payouts\/schedules(\/\{id\})?$/, field: 'payload.items[].recipientId', kind: 'payout_recipient' },
  { path: /\/business\/payouts$/, field: 'recipientId', kind: 'payout_recipient' },
  { path: /\/business\/payouts$/, field: 'quoteId', kind: 'payout_quote' },
  { path: /\/payouts\/batches$/, field: 'items[].recipientId', kind: 'payout_recipient' },
  { path: /\/payouts\/batches\/\{id\}\/payouts$/, field: 'recipientId', kind: 'payout_recipient' },
  { path: /\/treasury\/payouts$/, field: 'partnerEndUserId', kind: 'treasury_end_user' },
  { path: /\/treasury\/payouts$/, field: 'partnerWalletId', kind: 'treasury_wallet' },
  { path: /^\/v1\/payments$/, field: 'after', kind: 'v1_payment' },
  { path: /.*/, field: 'userId', kind: null, reason: "the merchant's own reference for its customer, free text" },
  { path: /.*/, field: 'externalId', kind: null, reason: "the partner's own reference for its end-user, free text" },
  {
    path: /.*/,
    field: 'details.networkId',
    kind: null,
    reason: 'a mobile network of the collection or payout rail (mtn-gh), not a tenant row',
  },
  {
    path: /.*/,
    field: 'customer.networkId',
    kind: null,
    reason: 'a mobile network of the collection rail, not a tenant row',
  },
  {
    path: /.*/,
    field: 'channelId',
    kind: null,
    reason: "a collection channel of the rail's catalogue, shared by every business",
  },
  {
    path: /.*/,
    field: 'businessPaymentId',
    kind: null,
    reason: "the merchant's own reference for the collection, free text",
  },
];

/** Other kinds whose rows share the kind's table (a treasury endpoint beside a merchant one): the kind-confusion probes send them. */
export const siblingsOf = (kind: Kind): Kind[] =>
  (Object.keys(KINDS) as Kind[]).filter((other) => other !== kind && KINDS[other].table === KINDS[kind].table);

/**
 * Operations and fields whose id takes rows of every kind of its table by design, so the
 * kind-confusion probes (a sibling kind's id) do not apply to them: each with why.
 */
export const ANY_KIND_OF_TABLE: Record<string, string> = {
  'POST /api/v1/webhook-deliveries/{id}/redeliver':
    'manual redelivery takes any delivery of the business and mode, to its URL or to an endpoint (docs/rest-api.md, Manual redelivery)',
  redeliverWebhook: 'as POST /api/v1/webhook-deliveries/{id}/redeliver',
  'POST /api/v1/events/{id}/replay':
    'replays to an endpoint of either registry (a treasury one while the product is enabled), as WebhookService.replayEvent documents',
  replayEvent: 'as POST /api/v1/events/{id}/replay',
  node: "takes the id of any type (Relay's object identification): another type's own id answers that object",
  nodes: 'as node, for up to 100 ids',
};

/** A name that says "an id" (a query parameter, a body field, a GraphQL argument or input field). */
export const looksLikeId = (name: string) => /(^id$|Id$|Ids$|_id$)/.test(name);

/**
 * A GraphQL argument's kind: `field.arg` first, then `*.arg` (the argument name alone), then for an
 * argument named `id`, the field's name. Input object fields use `Input.field`.
 */
export const GRAPHQL_RULES: Record<string, Kind | null> = {
  '*.paymentId': 'payment',
  '*.customerId': 'customer',
  '*.paymentMethodId': 'payment_method',
  '*.disputeId': 'dispute',
  '*.endUserId': 'treasury_end_user',
  '*.walletId': 'treasury_wallet',
  '*.membershipId': 'membership',
  '*.recipientId': 'payout_recipient',
  '*.batchId': 'payout_batch',
  '*.paymentLinkId': 'payment_link',
  '*.partnerEndUserId': 'treasury_end_user',
  '*.partnerWalletId': 'treasury_wallet',
  '*.quoteId': 'payout_quote',
  '*.endpointId': 'webhook_endpoint',
  '*.eventId': 'event',
  'RedeliverWebhookInput.id': 'endpoint_delivery',
  'RedeliverWebhookUrlDeliveryInput.id': 'url_delivery',
  'AcceptTeamInvitationInput.id': 'team_invitation',
  'DeclineTeamInvitationInput.id': 'team_invitation',
  'RevokeTeamInvitationInput.id': 'team_invitation',
  'RemoveTeamMemberInput.id': 'membership',
  advanceSandboxPayout: 'payout',
  approvePayout: 'payout',
  cancelPayout: 'payout',
  rejectPayout: 'payout',
  payout: 'payout',
  payoutUpdated: 'payout',
  archivePayoutRecipient: 'payout_recipient',
  payoutRecipient: 'payout_recipient',
  cancelPayoutSchedule: 'payout_schedule',
  pausePayoutSchedule: 'payout_schedule',
  resumePayoutSchedule: 'payout_schedule',
  updatePayoutSchedule: 'payout_schedule',
  payoutSchedule: 'payout_schedule',
  payoutScheduleUpdated: 'payout_schedule',
  'ApprovePayoutInput.id': 'payout',
  'RejectPayoutInput.id': 'payout',
  'CancelPayoutInput.id': 'payout',
  'AdvanceSandboxPayoutInput.id': 'payout',
  'ArchivePayoutRecipientInput.id': 'payout_recipient',
  'UpdatePayoutScheduleInput.id': 'payout_schedule',
  'PausePayoutScheduleInput.id': 'payout_schedule',
  'ResumePayoutScheduleInput.id': 'payout_schedule',
  'CancelPayoutScheduleInput.id': 'payout_schedule',
  'CancelRecurringGiftInput.id': 'recurring_gift',
  'ResumeRecurringGiftInput.id': 'recurring_gift',
  'SandboxChargeRecurringGiftInput.id': 'recurring_gift',
  recurringGift: 'recurring_gift',
  'CancelTreasuryPayoutInput.id': 'treasury_payout',
  treasuryPayout: 'treasury_payout',
  treasuryPayoutUpdated: 'treasury_payout',
  'DeactivatePaymentLinkInput.id': 'payment_link',
  paymentLink: 'payment_link',
  'DeleteTreasuryWebhookEndpointInput.id': 'treasury_webhook_endpoint',
  'UpdateTreasuryWebhookEndpointInput.id': 'treasury_webhook_endpoint',
  'RotateTreasuryWebhookEndpointSecretInput.id': 'treasury_webhook_endpoint',
  treasuryWebhookEndpoint: 'treasury_webhook_endpoint',
  'FinalizeInvoiceInput.id': 'invoice',
  'VoidInvoiceInput.id': 'invoice',
  invoice: 'invoice',
  'PaySandboxCollectionInput.id': 'collection',
  collection: 'collection',
  collectionUpdated: 'collection',
  'UpdateCustomerInput.id': 'customer',
  customer: 'customer',
  'CompleteThreeDSecureInput.id': 'payment',
  'SandboxSettlePaymentInput.id': 'payment',
  // node and nodes take an id of any type; payouts stand for them all (the answer is null for any id the caller may not see).
  'node.id': 'payout',
  'nodes.ids': 'payout',
  'DeleteFraudRuleInput.id': 'fraud_rule',
  'UpdateFraudRuleInput.id': 'fraud_rule',
  fraudRule: 'fraud_rule',
  'RemoveBlocklistEntryInput.id': 'blocklist_entry',
  'DeleteWebhookEndpointInput.id': 'webhook_endpoint',
  'UpdateWebhookEndpointInput.id': 'webhook_endpoint',
  webhookEndpoint: 'webhook_endpoint',
  checkoutSession: 'checkout_session',
  checkoutSessionUpdated: 'checkout_session',
  dispute: 'dispute',
  event: 'event',
  payment: 'payment',
  payoutBatch: 'payout_batch',
  treasuryEndUser: 'treasury_end_user',
  wallet: 'merchant_wallet',
  // A reconciliation run is the platform's, not a tenant's: operator tokens only, FORBIDDEN to every
  // merchant caller (test/operator-graphql.test.ts); probed as a field without a tenant id.
  operatorReconciliationRun: null,
  // Not tenant ids (the reasons are FIELD_RULES'): never substituted.
  '*.userId': null,
  '*.externalId': null,
  '*.channelId': null,
  '*.businessPaymentId': null,
  '*.networkId': null,
};

/**
 * Operations that take no tenant id anywhere and whose answers cannot hold another tenant's data,
 * so they are not called as the other tenant: each with why. Every other operation is probed.
 */
export const SKIPPED: Record<string, string> = {
  'POST /api/v1/business/auth/token':
    "exchanges the caller's own key and secret for a token; no tenant id, and the probes use its tokens",
  'POST /api/v1/business/regenerate-api-key':
    "replaces the caller's own key (takes no id); calling it would end the probing credential",
  'OPTIONS /api/v1/tokens': 'the CORS preflight of card tokenisation: no credential, no body, no data',
  'POST /api/v1/tokens': 'card tokenisation with a publishable key: takes no tenant id and answers only the new token',
};
