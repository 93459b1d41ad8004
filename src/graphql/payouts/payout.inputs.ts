import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';
import { PayoutRailKind, PayoutStatus } from '../../domain/payouts/payout.entities';
import { IdInput } from '../shared/payload';

/**
 * The inputs of the payout mutations, field for field the REST bodies (src/wire/payouts.ts checks
 * both). GraphQL has no input unions: `details` carries the fields of every rail, and its `rail`
 * says which apply (the others are ignored, as REST ignores unknown fields).
 */
@InputType({ description: 'LOCAL_BANK: country, currency, bankCode, bankName, accountNumber, accountName; MOBILE_MONEY: country, currency, networkId, phone, accountName; CRYPTO: chain, address, currency' })
export class PayoutRecipientDetailsInput {
  @Field(() => PayoutRailKind) rail: PayoutRailKind;
  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2, e.g. NG' }) country?: string;
  @Field({ nullable: true }) currency?: string;
  @Field({ nullable: true }) bankCode?: string;
  @Field({ nullable: true }) bankName?: string;
  @Field({ nullable: true }) accountNumber?: string;
  @Field({ nullable: true }) accountName?: string;
  @Field({ nullable: true, description: 'Mobile network, e.g. mtn-gh' }) networkId?: string;
  @Field({ nullable: true, description: 'International format, e.g. +233241234567' }) phone?: string;
  @Field({ nullable: true, description: 'e.g. ethereum' }) chain?: string;
  @Field({ nullable: true }) address?: string;
}

@InputType({ description: 'POST /business/payouts/recipients' })
export class CreatePayoutRecipientInput {
  @Field() label: string;
  @Field(() => PayoutRecipientDetailsInput) details: PayoutRecipientDetailsInput;
}

@InputType({ description: 'POST /business/payouts/quote' })
export class CreatePayoutQuoteInput {
  @Field({ description: 'Decimal amount of the wallet currency, e.g. "100.50"' }) amount: string;
  @Field({ description: "The source wallet's currency" }) currency: string;
  @Field() destinationCurrency: string;
  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2; required except for CRYPTO' }) country?: string;
  @Field(() => PayoutRailKind) rail: PayoutRailKind;
}

@InputType({ description: 'POST /business/payouts: the wallet is debited amount + service fee at once' })
export class CreatePayoutInput {
  @Field(() => ID) recipientId: string;
  @Field({ description: 'Decimal amount of the wallet currency, e.g. "100.50"' }) amount: string;
  @Field({ description: 'The currency of the wallet debited' }) currency: string;
  @Field(() => ID, { nullable: true, description: 'A quote of this amount and recipient; a new one is made when omitted' }) quoteId?: string;
  @Field({ nullable: true }) reference?: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
}

@InputType()
export class PayoutBatchItemInput {
  @Field(() => ID) recipientId: string;
  @Field({ description: 'Decimal amount, e.g. "100.50"' }) amount: string;
  @Field() currency: string;
  @Field({ nullable: true }) reference?: string;
}

@InputType({ description: 'POST /business/payouts/batches: 1 to 1,000 items, all checked first; all are created or none' })
export class CreatePayoutBatchInput {
  @Field({ nullable: true }) name?: string;
  @Field(() => [PayoutBatchItemInput]) items: PayoutBatchItemInput[];
}

export const CancelPayoutInput = IdInput('CancelPayout', 'The CREATED payout to cancel');
export type CancelPayoutInput = InstanceType<typeof CancelPayoutInput>;

export const ApprovePayoutInput = IdInput('ApprovePayout', 'The payout held for review (PENDING_REVIEW) to approve');
export type ApprovePayoutInput = InstanceType<typeof ApprovePayoutInput>;

@InputType({ description: 'POST /business/payouts/{id}/reject' })
export class RejectPayoutInput {
  @Field(() => ID, { description: 'The payout held for review (PENDING_REVIEW) to reject' }) id: string;
  @Field({ description: 'Why, 1 to 500 characters (becomes failureReason)' }) reason: string;
}

@InputType({ description: 'POST /business/payouts/{id}/sandbox/advance' })
export class AdvanceSandboxPayoutInput {
  @Field(() => ID) id: string;
  @Field(() => PayoutStatus, { description: 'SUBMITTED, SETTLED or FAILED' }) status: PayoutStatus;
  @Field(() => String, { nullable: true, description: 'FAILED only (default sandbox_failed)' }) reason?: string | null;
}

export const ArchivePayoutRecipientInput = IdInput('ArchivePayoutRecipient', 'The recipient to archive');
export type ArchivePayoutRecipientInput = InstanceType<typeof ArchivePayoutRecipientInput>;
