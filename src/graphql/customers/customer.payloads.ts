import { Payload } from '../shared/payload';
import { CustomerUserErrors } from './customer.errors';
import { Customer, PaymentMethod } from './customer.types';

export const CreateCustomerPayload = Payload('CreateCustomer', 'customer', () => Customer, CustomerUserErrors);
export type CreateCustomerPayload = InstanceType<typeof CreateCustomerPayload>;
export const UpdateCustomerPayload = Payload('UpdateCustomer', 'customer', () => Customer, CustomerUserErrors);
export type UpdateCustomerPayload = InstanceType<typeof UpdateCustomerPayload>;
export const AttachPaymentMethodPayload = Payload(
  'AttachPaymentMethod',
  'paymentMethod',
  () => PaymentMethod,
  CustomerUserErrors,
);
export type AttachPaymentMethodPayload = InstanceType<typeof AttachPaymentMethodPayload>;
export const DetachPaymentMethodPayload = Payload(
  'DetachPaymentMethod',
  'paymentMethod',
  () => PaymentMethod,
  CustomerUserErrors,
);
export type DetachPaymentMethodPayload = InstanceType<typeof DetachPaymentMethodPayload>;
export const SetDefaultPaymentMethodPayload = Payload(
  'SetDefaultPaymentMethod',
  'customer',
  () => Customer,
  CustomerUserErrors,
);
export type SetDefaultPaymentMethodPayload = InstanceType<typeof SetDefaultPaymentMethodPayload>;
