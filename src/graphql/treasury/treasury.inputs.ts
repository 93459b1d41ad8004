import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';
import { KycLevel, TreasuryDestinationType } from '../../domain/treasury/treasury.entities';
import { IdInput } from '../shared/payload';

/**
 * The inputs of the treasury mutations, field for field the REST bodies (src/wire/treasury.ts
 * checks both, with the same messages). GraphQL has no input unions: `destination` carries the
 * fields of every destination type, and `destinationType` says which apply (the others are
 * ignored, as REST ignores unknown fields).
 */
@InputType({ description: 'POST /api/v1/treasury/users' })
export class CreateTreasuryEndUserInput {
  @Field({ description: 'Your own id of the end-user, unique per partner and mode (1 to 200 characters)' }) externalId: string;
  @Field() email: string;
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true, description: 'International format, e.g. +14155550100' }) phone?: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
}

@InputType({
  description: 'bank_account: accountNumber, routingNumber or bankCode, accountName, country (bankName); mobile_money: phone, networkId, country (accountName); crypto: address, chain',
})
export class TreasuryPayoutDestinationInput {
  @Field({ nullable: true, description: 'bank_account: 4 to 34 letters or digits' }) accountNumber?: string;
  @Field({ nullable: true, description: 'bank_account: the routing number (or give bankCode)' }) routingNumber?: string;
  @Field({ nullable: true, description: 'bank_account: the bank code (or give routingNumber)' }) bankCode?: string;
  @Field({ nullable: true, description: "bank_account (required), mobile_money: the holder's name" }) accountName?: string;
  @Field({ nullable: true, description: 'bank_account, mobile_money: ISO 3166-1 alpha-2' }) country?: string;
  @Field({ nullable: true, description: 'bank_account' }) bankName?: string;
  @Field({ nullable: true, description: 'mobile_money: international format, e.g. +233241234567' }) phone?: string;
  @Field({ nullable: true, description: 'mobile_money: the network, e.g. mtn-gh' }) networkId?: string;
  @Field({ nullable: true, description: 'crypto: the wallet address' }) address?: string;
  @Field({ nullable: true, description: 'crypto: the chain, e.g. ethereum' }) chain?: string;
}

@InputType({ description: "POST /api/v1/treasury/payouts: the wallet is debited at once (INSUFFICIENT_FUNDS writes nothing)" })
export class CreateTreasuryPayoutInput {
  @Field(() => ID, { description: 'At least 8 characters' }) partnerEndUserId: string;
  @Field(() => ID, { description: "The end-user's wallet paid from; at least 8 characters" }) partnerWalletId: string;
  @Field({ description: 'Decimal in major units of the wallet\'s currency, digits with an optional dot and digits, e.g. "25.00"' }) amount: string;
  @Field(() => TreasuryDestinationType) destinationType: TreasuryDestinationType;
  @Field(() => TreasuryPayoutDestinationInput) destination: TreasuryPayoutDestinationInput;
  @Field({ nullable: true, description: 'A key of yours, only stored in metadata (extensions.idempotencyKey or the Idempotency-Key header de-duplicates)' })
  idempotencyKey?: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Your key-values; in the sandbox, test_outcome (success, failed, pending) drives the payout' })
  metadata?: Record<string, unknown>;
}

@InputType({ description: 'POST /api/v1/treasury/users/{id}/kyc' })
export class StartTreasuryKycInput {
  @Field(() => ID) endUserId: string;
  @Field(() => KycLevel, { nullable: true, description: 'BASIC by default' }) level?: KycLevel;
}

@InputType({ description: 'POST /api/v1/treasury/users/{id}/kyc/sandbox-approve' })
export class ApproveSandboxTreasuryKycInput {
  @Field(() => ID, { description: 'The end-user whose PENDING check is approved' }) endUserId: string;
}

@InputType({ description: 'POST /api/v1/treasury/users/{id}/kyc/sandbox-reject' })
export class RejectSandboxTreasuryKycInput {
  @Field(() => ID, { description: 'The end-user whose PENDING check is rejected' }) endUserId: string;
  @Field(() => [String], { description: '1 to 10 reasons' }) reasons: string[];
}

@InputType({ description: 'POST /api/v1/treasury/users/{id}/wallets' })
export class CreateTreasuryWalletInput {
  @Field(() => ID) endUserId: string;
  @Field({ description: 'USD, EUR, GBP or USDC (any case)' }) currency: string;
}

@InputType({ description: 'POST /api/v1/treasury/sandbox/users/{id}/wallets/{walletId}/deposit' })
export class DepositSandboxTreasuryWalletInput {
  @Field(() => ID) endUserId: string;
  @Field(() => ID) walletId: string;
  @Field({ description: 'Decimal in major units of the wallet\'s currency, e.g. "25.00"' }) amount: string;
}

export const CancelTreasuryPayoutInput = IdInput('CancelTreasuryPayout', 'The PENDING treasury payout to cancel');
export type CancelTreasuryPayoutInput = InstanceType<typeof CancelTreasuryPayoutInput>;
