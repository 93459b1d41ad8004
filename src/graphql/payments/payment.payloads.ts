import { Field } from 'type-graphql';
import { Payload } from '../shared/payload';
import { PaymentUserErrors } from './payment.errors';
import { Dispute, Payment, Refund } from './payment.types';

/** A payload that also carries the payment after the change (null when userErrors is not empty). */
function withPayment<T extends ReturnType<typeof Payload>>(PayloadType: T): T {
  Field(() => Payment, {
    nullable: true,
    description: 'The payment after the change; null when userErrors is not empty',
  })(PayloadType.prototype, 'payment');
  return PayloadType;
}

export const ChargeCardPayload = Payload('ChargeCard', 'payment', () => Payment, PaymentUserErrors);
export type ChargeCardPayload = InstanceType<typeof ChargeCardPayload>;
export const CompleteThreeDSecurePayload = Payload('CompleteThreeDSecure', 'payment', () => Payment, PaymentUserErrors);
export type CompleteThreeDSecurePayload = InstanceType<typeof CompleteThreeDSecurePayload>;
export const RefundPaymentPayload = withPayment(Payload('RefundPayment', 'refund', () => Refund, PaymentUserErrors));
export type RefundPaymentPayload = InstanceType<typeof RefundPaymentPayload>;
export const SandboxSettlePaymentPayload = Payload('SandboxSettlePayment', 'payment', () => Payment, PaymentUserErrors);
export type SandboxSettlePaymentPayload = InstanceType<typeof SandboxSettlePaymentPayload>;
export const SandboxOpenDisputePayload = withPayment(
  Payload('SandboxOpenDispute', 'dispute', () => Dispute, PaymentUserErrors),
);
export type SandboxOpenDisputePayload = InstanceType<typeof SandboxOpenDisputePayload>;
export const SandboxResolveDisputePayload = withPayment(
  Payload('SandboxResolveDispute', 'dispute', () => Dispute, PaymentUserErrors),
);
export type SandboxResolveDisputePayload = InstanceType<typeof SandboxResolveDisputePayload>;
export const SetServerToServerChargingPayload = Payload(
  'SetServerToServerCharging',
  'serverToServerCharging',
  () => Boolean,
  PaymentUserErrors,
  'The result of setServerToServerCharging: whether the business may now charge cards server to server in this mode',
);
export type SetServerToServerChargingPayload = InstanceType<typeof SetServerToServerChargingPayload>;
