import { PaymentUserErrors } from '../payments/payment.errors';
import { Payload } from '../shared/payload';
import { Invoice } from './invoice.types';

export const CreateInvoicePayload = Payload('CreateInvoice', 'invoice', () => Invoice, PaymentUserErrors);
export type CreateInvoicePayload = InstanceType<typeof CreateInvoicePayload>;
export const FinalizeInvoicePayload = Payload('FinalizeInvoice', 'invoice', () => Invoice, PaymentUserErrors);
export type FinalizeInvoicePayload = InstanceType<typeof FinalizeInvoicePayload>;
export const VoidInvoicePayload = Payload('VoidInvoice', 'invoice', () => Invoice, PaymentUserErrors);
export type VoidInvoicePayload = InstanceType<typeof VoidInvoicePayload>;
