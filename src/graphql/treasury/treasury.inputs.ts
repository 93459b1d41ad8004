import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';
import { KycLevel, TreasuryDestinationType } from '../../domain/treasury';
import { IdInput } from '../shared/payload';

/**
 * The inputs of the treasury mutations, field for field the REST bodies (src/wire/treasury.ts
 * checks both, with the same messages). GraphQL has no input unions: `destination` carries the
 * fields of every destination type, and `destinationType` says which apply (the others are
 * ignored, as REST ignores unknown fields).
 */
@InputType({ description: 'POST /api/v1/treasury/users' })
export class CreateTreasuryEndUserInput {
  @Field({ description: 'Your own id of the end-user, unique per partner and mode (1 to 200 characters)' })
  externalId: string;
  @Field({ description: "The end-user's email address (stored lower-cased)" }) email: string;
  @Field({ nullable: true, description: "The end-user's name, 1 to 200 characters" }) name?: string;
  @Field({ nullable: true, description: 'International format, e.g. +14155550100' }) phone?: string;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Your key-values: a JSON object of at most 8 KB, answered as given',
  })
  metadata?: Record<string, unknown>;
}

@InputType({
  description:
    'BANK_ACCOUNT: accountNumber, routingNumber or bankCode, accountName, country (bankName); MOBILE_MONEY: phone, networkId, country (accountName); CRYPTO: address, chain',
})
export class TreasuryPayoutDestinationInput {
  @Field({ nullable: true, description: 'BANK_ACCOUNT: the account number, 4 to 34 letters or digits' })
  accountNumber?: string;
  @Field({ nullable: true, description: 'BANK_ACCOUNT: the routing number (or give bankCode)' }) routingNumber?: string;
  @Field({ nullable: true, description: 'BANK_ACCOUNT: the bank code (or give routingNumber)' }) bankCode?: string;
  @Field({ nullable: true, description: "BANK_ACCOUNT (required), MOBILE_MONEY (optional): the holder's name" })
  accountName?: string;
  @Field({ nullable: true, description: 'BANK_ACCOUNT, MOBILE_MONEY: the country, ISO 3166-1 alpha-2 (any case)' })
  country?: string;
  @Field({ nullable: true, description: 'BANK_ACCOUNT (optional): the name of the bank' }) bankName?: string;
  @Field({ nullable: true, description: 'MOBILE_MONEY: the phone number in international format, e.g. +233241234567' })
  phone?: string;
  @Field({ nullable: true, description: 'MOBILE_MONEY: the network, e.g. mtn-gh' }) networkId?: string;
  @Field({ nullable: true, description: 'CRYPTO: the wallet address' }) address?: string;
  @Field({ nullable: true, description: 'CRYPTO: the chain, e.g. ethereum' }) chain?: string;
}

@InputType({
  description: 'POST /api/v1/treasury/payouts: the wallet is debited at once (INSUFFICIENT_FUNDS writes nothing)',
})
export class CreateTreasuryPayoutInput {
  @Field(() => ID, { description: 'At least 8 characters' }) partnerEndUserId: string;
  @Field(() => ID, { description: "The end-user's wallet paid from; at least 8 characters" }) partnerWalletId: string;
  @Field({
    description:
      'Decimal in major units of the wallet\'s currency, digits with an optional dot and digits, e.g. "25.00"',
  })
  amount: string;
  @Field(() => TreasuryDestinationType, {
    description: "Which destination's fields apply: BANK_ACCOUNT, MOBILE_MONEY or CRYPTO",
  })
  destinationType: TreasuryDestinationType;
  @Field(() => TreasuryPayoutDestinationInput, {
    description: 'Where the money goes: the fields of destinationType (the others are ignored)',
  })
  destination: TreasuryPayoutDestinationInput;
  @Field({
    nullable: true,
    description:
      'A key of yours, only stored in metadata (extensions.idempotencyKey or the Idempotency-Key header de-duplicates)',
  })
  idempotencyKey?: string;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Your key-values; in the sandbox, test_outcome (success, failed, pending) drives the payout',
  })
  metadata?: Record<string, unknown>;
}

@InputType({ description: 'POST /api/v1/treasury/users/{id}/kyc' })
export class StartTreasuryKycInput {
  @Field(() => ID, { description: 'The end-user to check' }) endUserId: string;
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
  @Field(() => ID, { description: 'The end-user who owns the wallet (its KYC check APPROVED, else KYC_REQUIRED)' })
  endUserId: string;
  @Field({ description: 'USD, EUR, GBP, NGN, KES, GHS, ZAR or USDC (any case); one wallet per currency' })
  currency: string;
}

@InputType({ description: 'POST /api/v1/treasury/sandbox/users/{id}/wallets/{walletId}/deposit' })
export class DepositSandboxTreasuryWalletInput {
  @Field(() => ID, { description: 'The end-user who owns the wallet' }) endUserId: string;
  @Field(() => ID, { description: 'The wallet credited' }) walletId: string;
  @Field({ description: 'Decimal in major units of the wallet\'s currency, e.g. "25.00"' }) amount: string;
}

export const CancelTreasuryPayoutInput = IdInput('CancelTreasuryPayout', 'The PENDING treasury payout to cancel');
export type CancelTreasuryPayoutInput = InstanceType<typeof CancelTreasuryPayoutInput>;
