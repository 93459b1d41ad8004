import { ApiCredential, Business, Membership, User } from '../domain/identity/identity.entities';
import { BusinessSettings } from '../domain/shared/business-settings.entity';
import { TeamInvitation } from '../domain/identity/team-invitation.entity';
import { PendingSignUp } from '../domain/identity/pending-sign-up.entity';
import { Currency, JournalEntry, JournalTransaction, LedgerAccount } from '../domain/ledger/ledger.entities';
import { DomainEvent } from '../domain/events/event.entity';
import { IdempotencyRecord } from '../domain/idempotency/idempotency.entity';
import { WebhookDelivery } from '../domain/webhooks/webhook-delivery.entity';
import { WebhookEndpoint } from '../domain/webhooks/webhook-endpoint.entity';
import { Customer, PaymentMethod } from '../domain/customers/customer.entities';
import { ChargeDedupeClaim, Dispute, Payment, Refund } from '../domain/payments/payment.entities';
import { CardToken } from '../domain/tokens/card-token.entity';
import { BlocklistEntry, FraudRule } from '../domain/fraud/fraud.entities';
import { CheckoutSession } from '../domain/checkout/checkout-session.entity';
import { PaymentLink } from '../domain/payment-links/payment-link.entity';
import { Invoice, InvoiceCounter } from '../domain/invoices/invoice.entity';
import { RecurringGift } from '../domain/recurring-gifts/recurring-gift.entity';
import { Payout, PayoutBatch, PayoutQuote, Recipient } from '../domain/payouts/payout.entities';
import { PayoutPin, PayoutPinFailure } from '../domain/payouts/payout-pin.entity';
import { PayoutSchedule, PayoutScheduleRun } from '../domain/payouts/schedule.entities';
import { Collection } from '../domain/collections/collection.entities';
import { SandboxClock, SandboxClockAdvance } from '../domain/sandbox/sandbox-clock.entity';
import {
  TreasuryEndUser,
  TreasuryKycCheck,
  TreasuryPayout,
  TreasuryWallet,
} from '../domain/treasury/treasury.entities';
import { MasterKeyCheck } from './master-key-check.entity';
import { SandboxMail } from '../providers/mail/sandbox-mail.entity';
import { V1ApiKey } from '../domain/identity/v1-key.entity';
import { V1Payment } from '../domain/payments/v1-payment.entity';
import { V1Transfer } from '../domain/payouts/v1-transfer.entity';
import { WalletLowBalanceThreshold } from '../domain/wallets/low-balance.entity';

export const entities = [
  User,
  Business,
  BusinessSettings,
  Membership,
  TeamInvitation,
  PendingSignUp,
  ApiCredential,
  Currency,
  LedgerAccount,
  JournalTransaction,
  JournalEntry,
  DomainEvent,
  IdempotencyRecord,
  WebhookDelivery,
  WebhookEndpoint,
  Customer,
  PaymentMethod,
  Payment,
  ChargeDedupeClaim,
  Refund,
  Dispute,
  CardToken,
  FraudRule,
  BlocklistEntry,
  CheckoutSession,
  PaymentLink,
  Invoice,
  InvoiceCounter,
  RecurringGift,
  Recipient,
  PayoutQuote,
  Payout,
  PayoutBatch,
  PayoutPin,
  PayoutPinFailure,
  PayoutSchedule,
  PayoutScheduleRun,
  SandboxClock,
  SandboxClockAdvance,
  Collection,
  MasterKeyCheck,
  SandboxMail,
  TreasuryEndUser,
  TreasuryKycCheck,
  TreasuryWallet,
  TreasuryPayout,
  V1ApiKey,
  V1Payment,
  V1Transfer,
  WalletLowBalanceThreshold,
];
