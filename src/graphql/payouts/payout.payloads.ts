import { Field } from 'type-graphql';
import { Payload } from '../shared/payload';
import { PayoutUserErrors } from './payout.errors';
import { Payout, PayoutBatch, PayoutQuote, PayoutRecipient } from './payout.types';

export const CreatePayoutPayload = Payload('CreatePayout', 'payout', () => Payout, PayoutUserErrors);
export type CreatePayoutPayload = InstanceType<typeof CreatePayoutPayload>;
export const CancelPayoutPayload = Payload('CancelPayout', 'payout', () => Payout, PayoutUserErrors);
export type CancelPayoutPayload = InstanceType<typeof CancelPayoutPayload>;
export const ApprovePayoutPayload = Payload('ApprovePayout', 'payout', () => Payout, PayoutUserErrors);
export type ApprovePayoutPayload = InstanceType<typeof ApprovePayoutPayload>;
export const RejectPayoutPayload = Payload('RejectPayout', 'payout', () => Payout, PayoutUserErrors);
export type RejectPayoutPayload = InstanceType<typeof RejectPayoutPayload>;
export const AdvanceSandboxPayoutPayload = Payload('AdvanceSandboxPayout', 'payout', () => Payout, PayoutUserErrors);
export type AdvanceSandboxPayoutPayload = InstanceType<typeof AdvanceSandboxPayoutPayload>;

export const CreatePayoutRecipientPayload = Payload(
  'CreatePayoutRecipient',
  'recipient',
  () => PayoutRecipient,
  PayoutUserErrors,
  'The recipient, and whether this create made it (false: the same destination was already a recipient)',
);
export type CreatePayoutRecipientPayload = InstanceType<typeof CreatePayoutRecipientPayload> & {
  created: boolean | null;
};
Field(() => Boolean, {
  nullable: true,
  description:
    'True when this create made the recipient; false when the destination was already one; null when userErrors is not empty',
})(CreatePayoutRecipientPayload.prototype, 'created');

export const ArchivePayoutRecipientPayload = Payload(
  'ArchivePayoutRecipient',
  'recipient',
  () => PayoutRecipient,
  PayoutUserErrors,
);
export type ArchivePayoutRecipientPayload = InstanceType<typeof ArchivePayoutRecipientPayload>;
export const CreatePayoutQuotePayload = Payload('CreatePayoutQuote', 'quote', () => PayoutQuote, PayoutUserErrors);
export type CreatePayoutQuotePayload = InstanceType<typeof CreatePayoutQuotePayload>;
export const CreatePayoutBatchPayload = Payload('CreatePayoutBatch', 'batch', () => PayoutBatch, PayoutUserErrors);
export type CreatePayoutBatchPayload = InstanceType<typeof CreatePayoutBatchPayload>;
