import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';
import { PayoutRailKind, PayoutStatus } from '../../domain/payouts';
import { IdInput } from '../shared/payload';

/**
 * The inputs of the payout mutations, field for field the REST bodies (src/wire/payouts.ts checks
 * both). GraphQL has no input unions: `details` carries the fields of every rail, and its `rail`
 * says which apply (the others are ignored, as REST ignores unknown fields).
 */
@InputType({
  description:
    'LOCAL_BANK: country, currency, bankCode, bankName, accountNumber, accountName; MOBILE_MONEY: country, currency, networkId, phone, accountName; CRYPTO: chain, address, currency',
})
export class PayoutRecipientDetailsInput {
  @Field(() => PayoutRailKind, {
    description: "The destination's rail: it says which of the other fields apply (the rest are ignored)",
  })
  rail: PayoutRailKind;
  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2, e.g. NG' }) country?: string;
  @Field({ nullable: true, description: 'The currency the recipient receives, ISO 4217 in any case (CRYPTO: USDC)' })
  currency?: string;
  @Field({ nullable: true, description: "LOCAL_BANK: the bank's code (up to 32 characters)" }) bankCode?: string;
  @Field({ nullable: true, description: "LOCAL_BANK: the bank's name (up to 120 characters)" }) bankName?: string;
  @Field({ nullable: true, description: 'LOCAL_BANK: 4 to 34 letters or digits (spaces and dashes ignored)' })
  accountNumber?: string;
  @Field({
    nullable: true,
    description:
      "LOCAL_BANK and MOBILE_MONEY: the account holder's name (up to 200 characters; screened on dashboard creates)",
  })
  accountName?: string;
  @Field({ nullable: true, description: 'Mobile network, e.g. mtn-gh' }) networkId?: string;
  @Field({ nullable: true, description: 'International format, e.g. +233241234567' }) phone?: string;
  @Field({
    nullable: true,
    description:
      'CRYPTO: the chain, e.g. ethereum (ethereum, polygon, base, arbitrum, optimism, solana, stellar or tron)',
  })
  chain?: string;
  @Field({ nullable: true, description: 'CRYPTO: the wallet address on chain (up to 128 characters)' })
  address?: string;
}

@InputType({ description: 'POST /business/payouts/recipients' })
export class CreatePayoutRecipientInput {
  @Field({ description: 'A name for the recipient, 1 to 200 characters (screened on dashboard creates)' })
  label: string;
  @Field(() => PayoutRecipientDetailsInput, { description: "The destination: its rail and that rail's account fields" })
  details: PayoutRecipientDetailsInput;
}

@InputType({ description: 'POST /business/payouts/quote' })
export class CreatePayoutQuoteInput {
  @Field({ description: 'Decimal amount of the wallet currency, e.g. "100.50"' }) amount: string;
  @Field({ description: "The source wallet's currency" }) currency: string;
  @Field({ description: 'The currency the recipient receives, ISO 4217 in any case' }) destinationCurrency: string;
  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2; required except for CRYPTO' }) country?: string;
  @Field(() => PayoutRailKind, { description: 'The rail of the payout to price (it decides the service fee rate)' })
  rail: PayoutRailKind;
}

@InputType({ description: 'POST /business/payouts: the wallet is debited amount + service fee at once' })
export class CreatePayoutInput {
  @Field(() => ID, { description: "The recipient to pay: one of the business's in this mode, not archived" })
  recipientId: string;
  @Field({ description: 'Decimal amount of the wallet currency, e.g. "100.50"' }) amount: string;
  @Field({ description: 'The currency of the wallet debited' }) currency: string;
  @Field(() => ID, {
    nullable: true,
    description:
      "An unexpired, unused quote matching this amount and currency and the recipient's currency, rail and country; when omitted the payout is priced now by the same rules (no quote is stored)",
  })
  quoteId?: string;
  @Field({ nullable: true, description: "The caller's own reference, up to 200 characters, answered on the payout" })
  reference?: string;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Any JSON object up to 8 KB, stored and answered on the payout',
  })
  metadata?: Record<string, unknown>;
  @Field({
    nullable: true,
    description:
      'The payout PIN, 6 digits: when given it is checked first (INVALID_PIN, PIN_LOCKED, PIN_NOT_SET) and nothing is written on a refusal; the dashboard always sends it',
  })
  pin?: string;
}

@InputType({
  description: "One payout of a batch (or of a BATCH schedule's run), checked as createPayout checks its input",
})
export class PayoutBatchItemInput {
  @Field(() => ID, { description: "The recipient to pay: one of the business's in this mode, not archived" })
  recipientId: string;
  @Field({ description: 'Decimal amount, e.g. "100.50"' }) amount: string;
  @Field({ description: 'The currency of the wallet debited, the same for every item' }) currency: string;
  @Field({ nullable: true, description: "The caller's own reference, up to 200 characters, answered on the payout" })
  reference?: string;
}

@InputType({
  description: 'POST /business/payouts/batches: 1 to 1,000 items, all checked first; all are created or none',
})
export class CreatePayoutBatchInput {
  @Field({ nullable: true, description: 'A name for the batch, up to 200 characters' }) name?: string;
  @Field(() => [PayoutBatchItemInput], {
    description: 'The payouts, 1 to 1,000 in one currency; a bad item is a userError on ["input", "items", "N", field]',
  })
  items: PayoutBatchItemInput[];
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

@InputType({ description: 'POST /business/sandbox/payouts/{id}/advance' })
export class AdvanceSandboxPayoutInput {
  @Field(() => ID, { description: 'The test-mode payout to move' }) id: string;
  @Field(() => PayoutStatus, { description: 'SUBMITTED, SETTLED or FAILED' }) status: PayoutStatus;
  @Field(() => String, { nullable: true, description: 'FAILED only (default sandbox_failed)' }) reason?: string | null;
}

export const ArchivePayoutRecipientInput = IdInput('ArchivePayoutRecipient', 'The recipient to archive');
export type ArchivePayoutRecipientInput = InstanceType<typeof ArchivePayoutRecipientInput>;
