import { DataSource } from 'typeorm';
import { Config } from '../config';
import { Secrets } from '../secrets';
import { IdentityService } from './identity/identity.service';
import { TokenSigner } from './identity/tokens';
import { TeamInvitationService } from './identity/team-invitation.service';
import { SignUpService } from './identity/sign-up.service';
import { Mode } from './shared/modes';
import { LedgerService } from './ledger/ledger.service';
import { WalletService } from './wallets/wallet.service';
import { EventService } from './events/event.service';
import { EventLogService } from './events/event-log.service';
import { TesseraPubSub } from './events/pubsub';
import { IdempotencyService } from './idempotency/idempotency.service';
import { RequestContext, RequestOrigin } from './shared/context';
import { SecretBox } from './shared/crypto';
import { WebhookService } from './webhooks/webhook.service';
import { WebhookEndpointService } from './webhooks/webhook-endpoint.service';
import { DeliveryLogService } from './webhooks/delivery-log.service';
import { PaymentService } from './payments/payment.service';
import { ChargeService } from './payments/charge.service';
import { ChargeStore } from './payments/charge.store';
import { SettlementService } from './payments/settlement.service';
import { RefundService } from './payments/refund.service';
import { DisputeService } from './payments/dispute.service';
import { PaymentStore } from './payments/payment.store';
import { paymentProductSettings } from './payments/payments.settings';
import { CustomerService, savedCardToCharge } from './customers/customer.service';
import { Mailer } from '../providers/mail/port';
import { ProviderRegistry, createProviders } from '../providers/registry';
import { TreasuryWebhookEndpointService } from './webhooks/treasury-webhook-endpoint.service';
import { WebhookTargetPolicy } from './shared/url-policy';
import { CardTokenService } from './tokens/card-token.service';
import { FraudService } from './fraud/fraud.service';
import { CheckoutService } from './checkout/checkout.service';
import { PaymentLinkService } from './payment-links/payment-link.service';
import { InvoiceService } from './invoices/invoice.service';
import { RecurringGiftService } from './recurring-gifts/recurring-gift.service';
import { RecipientService } from './payouts/recipient.service';
import { QuoteService } from './payouts/quote.service';
import { PayoutService } from './payouts/payout.service';
import { BatchService } from './payouts/batch.service';
import { PayoutPinService } from './payouts/payout-pin.service';
import { ScheduleService } from './payouts/schedule.service';
import { ScheduleRunner } from './payouts/schedule-runner';
import { payoutProductSettings } from './payouts/payouts.settings';
import { ClockService } from './sandbox/clock.service';
import { CollectionService } from './collections/collection.service';
import { CollectionSettlementService } from './collections/collection-settlement.service';
import { EndUserService } from './treasury/end-user.service';
import { KycService } from './treasury/kyc.service';
import { TreasuryWalletService } from './treasury/treasury-wallet.service';
import { TreasuryPayoutService } from './treasury/treasury-payout.service';
import { treasuryProductSettings } from './treasury/treasury.settings';
import { V1KeyService } from './identity/v1-key.service';
import { V1PaymentService } from './checkout/v1-payment.service';
import { V1EventService } from './webhooks/v1-event.service';
import { V1SettingsService } from './webhooks/v1-settings.service';
import { LowBalanceService } from './wallets/low-balance.service';
import { V1TransferService } from './payouts/v1-transfer.service';
import { DomainEventBus } from './shared/domain-events';
import { checkoutSubscriptions } from './checkout/checkout.subscriptions';
import { payoutsSubscriptions } from './payouts/payouts.subscriptions';
import { collectionsSubscriptions } from './collections/collections.subscriptions';
import { invoicesSubscriptions } from './invoices/invoices.subscriptions';
import { recurringGiftsSubscriptions } from './recurring-gifts/recurring-gifts.subscriptions';
import { walletsSubscriptions } from './wallets/wallets.subscriptions';
import { webhooksSubscriptions } from './webhooks/webhooks.subscriptions';

/** The domain, wired once: both faces, the CLI and the workers use these services. */
export interface Core {
  config: Config;
  dataSource: DataSource;
  pubSub: TesseraPubSub;
  identity: IdentityService;
  signUps: SignUpService;
  /** The providers of each kind and mode (src/providers/registry.ts): `providerFor(ctx, kind)` refuses a mode without one. */
  providers: ProviderRegistry;
  /** Outgoing mail: SMTP, or the sandbox mailbox (src/providers/mail). */
  mailer: Mailer;
  teamInvitations: TeamInvitationService;
  ledger: LedgerService;
  wallets: WalletService;
  events: EventService;
  eventLog: EventLogService;
  deliveryLog: DeliveryLogService;
  idempotency: IdempotencyService;
  webhooks: WebhookService;
  webhookEndpoints: WebhookEndpointService;
  /** Payment reads, and the charge and job operations other areas and the worker use. */
  payments: PaymentService;
  charges: ChargeService;
  settlements: SettlementService;
  refunds: RefundService;
  disputes: DisputeService;
  customers: CustomerService;
  treasuryWebhookEndpoints: TreasuryWebhookEndpointService;
  cardTokens: CardTokenService;
  fraud: FraudService;
  checkout: CheckoutService;
  paymentLinks: PaymentLinkService;
  invoices: InvoiceService;
  recurringGifts: RecurringGiftService;
  /** Payouts (design section 8): recipients, quotes, payouts and batches. */
  recipients: RecipientService;
  quotes: QuoteService;
  payouts: PayoutService;
  payoutBatches: BatchService;
  /** The business's payout PIN: set by an OWNER, checked (`verify`) before payouts are scheduled. */
  payoutPins: PayoutPinService;
  /** Scheduled payouts: the resource, its lifecycle and the runner (design section 8). */
  payoutSchedules: ScheduleService;
  /** Fires due schedule runs, each exactly once (the worker's jobs, and the test clock's advance). */
  payoutScheduleRunner: ScheduleRunner;
  /** The sandbox's test clock: "now" for a business in test mode (the schedule runner, collection expiry). */
  sandboxClock: ClockService;
  /** Collections over local rails (design section 9): channels, collections, the rail's reports, USDC settlement. */
  collections: CollectionService;
  /** Treasury (design section 10): a partner's end-users, their KYC, wallets and payouts (docs/treasury.md, Domain API). */
  treasuryEndUsers: EndUserService;
  treasuryKyc: KycService;
  treasuryWallets: TreasuryWalletService;
  treasuryPayouts: TreasuryPayoutService;
  /** The alternate surface's keys (design section 11): issued per business and mode, hashed and sealed. */
  v1Keys: V1KeyService;
  /** The emitter of `/v1` events (signed with the `/v1` key, to a resource's own URL and the business's webhook URL). */
  v1Events: V1EventService;
  v1Settings: V1SettingsService;
  /** `/v1` payments: hosted checkout sessions in `/v1` terms, with their `/v1` events. */
  v1Payments: V1PaymentService;
  /** Low-balance thresholds of wallets per business, mode and currency, and their crossings (`wallet.low_balance` on /v1). */
  lowBalance: LowBalanceService;
  /** `/v1` transfers: payouts in `/v1` terms, with their `/v1` events. */
  v1Transfers: V1TransferService;
  /** The context of a caller without a credential (yet): sign-in, sign-up, hosted pages, authentication itself. */
  anonymousContext(origin?: RequestOrigin): RequestContext;
}

export interface CoreOptions {
  /** The server's log (one line each); the sandbox mailbox writes every message there. */
  log?: (line: string) => void;
}

export function createCore(
  config: Config,
  secrets: Secrets,
  dataSource: DataSource,
  pubSub: TesseraPubSub,
  { log = () => undefined }: CoreOptions = {},
): Core {
  const bus = new DomainEventBus();
  const ledger = new LedgerService(bus, pubSub);
  const providers = createProviders(config, secrets, dataSource, log);
  const mailer = providers.inMode('mail', 'test');
  const secretBox = new SecretBox(secrets.masterKey);
  const webhookTargets = new WebhookTargetPolicy({ allowPrivateTestTargets: config.webhookAllowPrivateTargets });
  const identity = new IdentityService({
    tokens: new TokenSigner(secrets.jwtSecret, config.jwtTtlSeconds),
    secretBox,
    pubSub,
    bus,
    webhookTargets,
    productSettings: [paymentProductSettings, payoutProductSettings, treasuryProductSettings],
    lockout: {
      maxFailures: config.signInMaxFailures,
      windowSeconds: config.signInFailureWindowSeconds,
      lockoutSeconds: config.signInLockoutSeconds,
    },
  });
  const treasuryWebhookEndpoints = new TreasuryWebhookEndpointService(webhookTargets, secretBox);
  const v1Keys = new V1KeyService(secretBox);
  const webhooks = new WebhookService(
    {
      timeoutMs: config.webhookTimeoutMs,
      retryScheduleSeconds: config.webhookRetryScheduleSeconds,
      targets: webhookTargets,
    },
    (sealed) => secretBox.open(sealed),
    treasuryWebhookEndpoints,
    pubSub,
    v1Keys,
  );
  const events = new EventService(pubSub, bus);
  const wallets = new WalletService(ledger, events);
  const idempotency = new IdempotencyService(config.idempotencyTtlHours, secretBox);
  const fraud = new FraudService();
  const paymentStore = new PaymentStore(pubSub);
  const charges = new ChargeService(
    {
      settlementDelaySeconds: config.paymentSettlementDelaySeconds,
      sandbox3dsAutoCompleteMs: config.sandbox3dsAutoCompleteMs,
    },
    providers,
    ledger,
    events,
    paymentStore,
    new ChargeStore(),
    (tx, attempt) => fraud.screen(tx, attempt),
    savedCardToCharge,
  );
  const settlements = new SettlementService(ledger, events, paymentStore, providers);
  const disputes = new DisputeService(ledger, events, paymentStore, settlements);
  const payments = new PaymentService(paymentStore, charges, settlements, disputes);
  const vaultCard = (ctx: RequestContext, card: Parameters<PaymentService['vaultCard']>[1]) =>
    payments.vaultCard(ctx, card);
  const customers = new CustomerService(vaultCard);
  const sandboxClock = new ClockService(bus);
  const checkout = new CheckoutService(
    {
      publicBaseUrl: config.publicBaseUrl,
      sandbox3dsAutoCompleteMs: config.sandbox3dsAutoCompleteMs,
      attemptLimits: {
        perSession: config.checkoutMaxFailedAttemptsPerSession,
        perSource: config.checkoutMaxFailedAttemptsPerLink,
        perCard: config.checkoutMaxFailedAttemptsPerCard,
        windowSeconds: config.checkoutFailedAttemptsWindowSeconds,
      },
    },
    payments,
    events,
    sandboxClock,
    bus,
  );
  const recurringGifts = new RecurringGiftService(
    { maxFailures: config.recurringGiftMaxFailures, retryDelaySeconds: config.recurringGiftRetryDelaySeconds },
    payments,
    customers,
    events,
  );
  const recipients = new RecipientService(providers, secretBox);
  const quotes = new QuoteService(providers);
  const payouts = new PayoutService(providers, ledger, events, recipients, quotes, pubSub, bus);
  const payoutBatches = new BatchService(payouts);
  const payoutPins = new PayoutPinService();
  const payoutSchedules = new ScheduleService(
    providers,
    events,
    recipients,
    payouts,
    payoutBatches,
    payoutPins,
    sandboxClock,
    pubSub,
  );
  const payoutScheduleRunner = new ScheduleRunner(providers, events, payouts, payoutBatches, sandboxClock, pubSub);
  const collections = new CollectionService(
    { publicBaseUrl: config.publicBaseUrl },
    providers,
    ledger,
    events,
    new CollectionSettlementService(providers, ledger),
    checkout,
    sandboxClock,
    pubSub,
  );
  const treasuryWallets = new TreasuryWalletService(providers, ledger, events);
  const v1Events = new V1EventService(webhooks);
  const v1Payments = new V1PaymentService(checkout, v1Events, webhookTargets, settlements);
  const lowBalance = new LowBalanceService(bus);
  const v1Transfers = new V1TransferService(recipients, payouts, v1Events);
  const invoices = new InvoiceService(checkout, events);
  // Each area declares what it hears; the bus tells subscribers of one event in this order (a test
  // clock's slice fires checkout's expiries, then scheduled payouts, then collections' expiries).
  for (const subscription of [
    ...webhooksSubscriptions({ webhooks }),
    ...checkoutSubscriptions({ checkout, v1Payments }),
    ...payoutsSubscriptions({ payoutScheduleRunner, v1Transfers }),
    ...collectionsSubscriptions({ collections }),
    ...invoicesSubscriptions({ invoices }),
    ...recurringGiftsSubscriptions({ recurringGifts }),
    ...walletsSubscriptions({ wallets, lowBalance, v1Events }),
  ])
    bus.subscribe(subscription);
  return {
    config,
    dataSource,
    pubSub,
    identity,
    signUps: new SignUpService(identity.businesses, mailer),
    providers,
    mailer,
    teamInvitations: new TeamInvitationService(),
    ledger,
    wallets,
    events,
    eventLog: new EventLogService(),
    deliveryLog: new DeliveryLogService(),
    idempotency,
    webhooks,
    webhookEndpoints: new WebhookEndpointService(webhookTargets),
    treasuryWebhookEndpoints,
    payments,
    charges,
    settlements,
    refunds: new RefundService(ledger, events, paymentStore, settlements),
    disputes,
    customers,
    cardTokens: new CardTokenService(vaultCard),
    fraud,
    checkout,
    paymentLinks: new PaymentLinkService(config.publicBaseUrl, checkout),
    invoices,
    recurringGifts,
    recipients,
    quotes,
    payouts,
    payoutBatches,
    payoutPins,
    payoutSchedules,
    payoutScheduleRunner,
    sandboxClock,
    collections,
    treasuryEndUsers: new EndUserService(events),
    treasuryKyc: new KycService({ publicBaseUrl: config.publicBaseUrl }, providers, events, pubSub),
    treasuryWallets,
    treasuryPayouts: new TreasuryPayoutService(providers, ledger, events, treasuryWallets, secretBox, pubSub),
    v1Keys,
    v1Events,
    v1Settings: new V1SettingsService(webhookTargets),
    v1Payments,
    lowBalance,
    v1Transfers,
    anonymousContext: (origin) => new RequestContext(dataSource, { kind: 'anonymous' }, null, Mode.TEST, origin),
  };
}
