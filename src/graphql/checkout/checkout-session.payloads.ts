import { PaymentUserErrors } from '../payments/payment.errors';
import { Payload } from '../shared/payload';
import { CheckoutSession } from './checkout-session.types';

export const CreateCheckoutSessionPayload = Payload(
  'CreateCheckoutSession',
  'checkoutSession',
  () => CheckoutSession,
  PaymentUserErrors,
);
export type CreateCheckoutSessionPayload = InstanceType<typeof CreateCheckoutSessionPayload>;
