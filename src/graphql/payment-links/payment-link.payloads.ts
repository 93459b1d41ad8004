import { PaymentUserErrors } from '../payments/payment.errors';
import { Payload } from '../shared/payload';
import { PaymentLink } from './payment-link.types';

export const CreatePaymentLinkPayload = Payload(
  'CreatePaymentLink',
  'paymentLink',
  () => PaymentLink,
  PaymentUserErrors,
);
export type CreatePaymentLinkPayload = InstanceType<typeof CreatePaymentLinkPayload>;
export const DeactivatePaymentLinkPayload = Payload(
  'DeactivatePaymentLink',
  'paymentLink',
  () => PaymentLink,
  PaymentUserErrors,
);
export type DeactivatePaymentLinkPayload = InstanceType<typeof DeactivatePaymentLinkPayload>;
