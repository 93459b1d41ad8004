import { SanctionsLists1796600000000 } from './1796600000000-SanctionsLists';
import { Treasury1796000000000 } from './1796000000000-Treasury';
import { Collections1795900000000 } from './1795900000000-Collections';
import { V1Surface1796100000000 } from './1796100000000-V1Surface';
import { V1TransfersLowBalance1796150000000 } from './1796150000000-V1TransfersLowBalance';
import { FxClearing1796170000000 } from './1796170000000-FxClearing';
import { PayoutSchedules1795800000000 } from './1795800000000-PayoutSchedules';
import { PayoutPins1795600000000 } from './1795600000000-PayoutPins';
import { Payouts1795700000000 } from './1795700000000-Payouts';
import { ChargeDedupeClaims1795500000000 } from './1795500000000-ChargeDedupeClaims';
import { MasterKeyCheck1795432233718 } from './1795432233718-MasterKeyCheck';
import { PendingSignUpsSandboxMail1795433742067 } from './1795433742067-PendingSignUpsSandboxMail';
import { CheckoutSessionLock1795432454472 } from './1795432454472-CheckoutSessionLock';
import { IdempotencyEffects1795432576574 } from './1795432576574-IdempotencyEffects';
import { TeamInvitations1795432755917 } from './1795432755917-TeamInvitations';
import { SignInLockout1795433047912 } from './1795433047912-SignInLockout';
import { WebhookDeliveryTarget1795430787467 } from './1795430787467-WebhookDeliveryTarget';
import { WebhookDeliveryRequestBody1795430466968 } from './1795430466968-WebhookDeliveryRequestBody';
import { PaymentIndexes1795346355914 } from './1795346355914-PaymentIndexes';
import { CustomersTokensFraud1795343224636 } from './1795343224636-CustomersTokensFraud';
import { Checkout1795343595863 } from './1795343595863-Checkout';
import { Payments1795342909720 } from './1795342909720-Payments';
import { TreasuryWebhookEndpoints1795343101160 } from './1795343101160-TreasuryWebhookEndpoints';
import { WebhookEndpoints1795337485832 } from './1795337485832-WebhookEndpoints';
import { WebhookDeliveries1795336882525 } from './1795336882525-WebhookDeliveries';
import { Initial1795333844080 } from './1795333844080-Initial';
import { WebhookDeliveryPump1796200000000 } from './1796200000000-WebhookDeliveryPump';
import { PayoutPinFailures1796260000000 } from './1796260000000-PayoutPinFailures';
import { ClockAdvances1796270000000 } from './1796270000000-ClockAdvances';
import { V1WebhookUrl1796290000000 } from './1796290000000-V1WebhookUrl';
import { EventsInOrder1796310000000 } from './1796310000000-EventsInOrder';
import { ProviderEvents1796330000000 } from './1796330000000-ProviderEvents';
import { AcquirerReferences1796350000000 } from './1796350000000-AcquirerReferences';
import { AcquirerDisputes1796360000000 } from './1796360000000-AcquirerDisputes';
import { PaymentAuthenticationUrl1796370000000 } from './1796370000000-PaymentAuthenticationUrl';
import { AcquirerCustomerRef1796380000000 } from './1796380000000-AcquirerCustomerRef';
import { Reconciliation1796390000000 } from './1796390000000-Reconciliation';
import { PaymentAcquirerReferenceIndex1796400000000 } from './1796400000000-PaymentAcquirerReferenceIndex';
import { OperatorTokens1796650000000 } from './1796650000000-OperatorTokens';
import { ReconciliationProvider1796660000000 } from './1796660000000-ReconciliationProvider';
import { SanctionsMatchRequest1796700000000 } from './1796700000000-SanctionsMatchRequest';
import { PaymentCapturedIndex1796710000000 } from './1796710000000-PaymentCapturedIndex';
import { EventPaymentIndex1796770000000 } from './1796770000000-EventPaymentIndex';
/** Every migration, in order. New migrations are appended here (npm run migration:generate does it). */
// Function is the type TypeORM's `migrations` option takes, and the line migration:generate rewrites.
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const migrations: Function[] = [
  Initial1795333844080,
  WebhookDeliveries1795336882525,
  WebhookEndpoints1795337485832,
  Payments1795342909720,
  TreasuryWebhookEndpoints1795343101160,
  CustomersTokensFraud1795343224636,
  Checkout1795343595863,
  PaymentIndexes1795346355914,
  WebhookDeliveryRequestBody1795430466968,
  WebhookDeliveryTarget1795430787467,
  MasterKeyCheck1795432233718,
  CheckoutSessionLock1795432454472,
  IdempotencyEffects1795432576574,
  TeamInvitations1795432755917,
  SignInLockout1795433047912,
  PendingSignUpsSandboxMail1795433742067,
  ChargeDedupeClaims1795500000000,
  PayoutPins1795600000000,
  Payouts1795700000000,
  PayoutSchedules1795800000000,
  Collections1795900000000,
  Treasury1796000000000,
  V1Surface1796100000000,
  V1TransfersLowBalance1796150000000,
  FxClearing1796170000000,
  WebhookDeliveryPump1796200000000,
  PayoutPinFailures1796260000000,
  ClockAdvances1796270000000,
  V1WebhookUrl1796290000000,
  EventsInOrder1796310000000,
  ProviderEvents1796330000000,
  AcquirerReferences1796350000000,
  AcquirerDisputes1796360000000,
  PaymentAuthenticationUrl1796370000000,
  AcquirerCustomerRef1796380000000,
  Reconciliation1796390000000,
  PaymentAcquirerReferenceIndex1796400000000,
  SanctionsLists1796600000000,
  OperatorTokens1796650000000,
  ReconciliationProvider1796660000000,
  SanctionsMatchRequest1796700000000,
  PaymentCapturedIndex1796710000000,
  EventPaymentIndex1796770000000,
];
