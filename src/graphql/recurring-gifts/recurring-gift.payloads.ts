import { PaymentUserErrors } from '../payments/payment.errors';
import { Payload } from '../shared/payload';
import { RecurringGift } from './recurring-gift.types';

export const CancelRecurringGiftPayload = Payload(
  'CancelRecurringGift',
  'recurringGift',
  () => RecurringGift,
  PaymentUserErrors,
);
export type CancelRecurringGiftPayload = InstanceType<typeof CancelRecurringGiftPayload>;
export const ResumeRecurringGiftPayload = Payload(
  'ResumeRecurringGift',
  'recurringGift',
  () => RecurringGift,
  PaymentUserErrors,
);
export type ResumeRecurringGiftPayload = InstanceType<typeof ResumeRecurringGiftPayload>;
export const SandboxChargeRecurringGiftPayload = Payload(
  'SandboxChargeRecurringGift',
  'recurringGift',
  () => RecurringGift,
  PaymentUserErrors,
);
export type SandboxChargeRecurringGiftPayload = InstanceType<typeof SandboxChargeRecurringGiftPayload>;
