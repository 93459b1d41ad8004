import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import {
  EndUserStatus, KycLevel, KycStatus, TreasuryDestinationType, TreasuryEndUser as EndUserRow, TreasuryKycCheck as KycCheckRow,
  TreasuryPayout as PayoutRow, TreasuryPayoutStatus, TreasuryWalletStatus, TreasuryWalletView,
} from '../../domain/treasury/treasury.entities';
import { TreasuryDeposit as DepositRow, depositInstructionsObject } from '../../domain/treasury/treasury.events';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';
import { Money } from '../shared/money.type';

registerEnumType(EndUserStatus, {
  name: 'TreasuryEndUserStatus',
  description: 'PENDING_KYC until its KYC check is decided, then ACTIVE (approved) or REJECTED; REST writes them pending_kyc, active, rejected',
});
registerEnumType(KycStatus, { name: 'TreasuryKycStatus', description: 'PENDING until the check is decided, then APPROVED or REJECTED' });
registerEnumType(KycLevel, { name: 'TreasuryKycLevel', description: 'How thorough the identity check is (BASIC by default)' });
registerEnumType(TreasuryWalletStatus, { name: 'TreasuryWalletStatus' });
registerEnumType(TreasuryPayoutStatus, {
  name: 'TreasuryPayoutStatus',
  description: 'PENDING (wallet debited) -> PROCESSING (with the rail) -> COMPLETED or FAILED (debit reversed); CANCELLED while PENDING (debit reversed)',
});
registerEnumType(TreasuryDestinationType, { name: 'TreasuryDestinationType', description: 'Where a treasury payout sends the money; REST writes them bank_account, mobile_money, crypto' });

@ObjectType({ description: "A treasury partner's end-user (REST: Treasury end-user)", implements: Node })
export class TreasuryEndUser extends Node {
  @Field(() => ID, { description: 'The partner (business) id' }) partnerId: string;
  @Field({ description: "The partner's own id of the end-user, unique per partner and mode" }) externalId: string;
  @Field() email: string;
  @Field(() => EndUserStatus) status: EndUserStatus;
  @Field(() => String, { nullable: true }) name: string | null;
  @Field(() => String, { nullable: true }) phone: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata: Record<string, unknown> | null;
  @Field() livemode: boolean;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: EndUserRow): TreasuryEndUser {
    return Object.assign(new TreasuryEndUser(), {
      id: row.id, partnerId: row.businessId, externalId: row.externalId, email: row.email, status: row.status, name: row.name, phone: row.phone,
      metadata: row.metadata, livemode: row.livemode, createdAt: row.createdAt, updatedAt: row.updatedAt,
    });
  }
}

@ObjectType()
export class TreasuryEndUserConnection extends Connection(TreasuryEndUser, 'TreasuryEndUser') {}

@ObjectType({ description: "One identity check of an end-user (REST: Treasury KYC record); the end-user's latest check is its KYC record", implements: Node })
export class TreasuryKycCheck extends Node {
  @Field(() => ID) partnerEndUserId: string;
  @Field(() => KycStatus) status: KycStatus;
  @Field(() => KycLevel) level: KycLevel;
  @Field(() => [String], { description: 'Empty unless REJECTED' }) rejectionReasons: string[];
  @Field({ description: "The page the end-user opens to go through the check (in the sandbox, Tessera's own page where the tester decides)" }) kycLinkUrl: string;
  @Field(() => Date, { nullable: true, description: 'When it was approved or rejected' }) decidedAt: Date | null;
  @Field() livemode: boolean;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: KycCheckRow): TreasuryKycCheck {
    return Object.assign(new TreasuryKycCheck(), {
      id: row.id, partnerEndUserId: row.endUserId, status: row.status, level: row.level, rejectionReasons: [...row.rejectionReasons],
      kycLinkUrl: row.kycLinkUrl, decidedAt: row.decidedAt, livemode: row.livemode, createdAt: row.createdAt, updatedAt: row.updatedAt,
    });
  }
}

@ObjectType()
export class TreasuryKycCheckConnection extends Connection(TreasuryKycCheck, 'TreasuryKycCheck') {}

@ObjectType({ description: "The end-user's check, and whether this call started it (false: its PENDING check is answered, as REST's 200)" })
export class StartTreasuryKycResult {
  @Field(() => TreasuryKycCheck) kyc: TreasuryKycCheck;
  @Field() created: boolean;
}

@ObjectType({ description: 'Where money reaches a wallet from outside (REST: Wallet deposit instructions): a fiat virtual account, or a chain address for USDC; fields that do not apply are null' })
export class TreasuryDepositInstructions {
  @Field(() => ID) walletId: string;
  @Field() currency: string;
  @Field(() => String, { nullable: true, description: 'Fiat: the virtual account number (null for EUR, which uses iban)' }) accountNumber: string | null;
  @Field(() => String, { nullable: true, description: 'Fiat: ABA routing number (USD), sort code (GBP) or bank code' }) routingNumber: string | null;
  @Field(() => String, { nullable: true, description: 'EUR and GBP' }) iban: string | null;
  @Field(() => String, { nullable: true }) bankName: string | null;
  @Field(() => String, { nullable: true, description: 'One of checking, current, iban or virtual' }) accountType: string | null;
  @Field(() => GraphQLJSONObject, { description: "The rail's instructions: method, scheme, beneficiaryName, reference, note; or asset, chain, address, memo, note" })
  depositInstructions: Record<string, string | null>;
  @Field(() => String, { nullable: true, description: 'USDC: the address to send to' }) cryptoDepositAddress: string | null;
  @Field(() => String, { nullable: true, description: 'USDC: its chain' }) cryptoDepositChain: string | null;
  @Field(() => String, { nullable: true, description: 'USDC: the same address' }) walletAddress: string | null;
  @Field(() => String, { nullable: true, description: 'USDC: the same chain' }) chain: string | null;
}

@ObjectType({ description: "An end-user's wallet in one currency, its balance from its own ledger account (never the partner's merchant wallet)", implements: Node })
export class TreasuryWallet extends Node {
  @Field(() => ID) partnerEndUserId: string;
  @Field({ description: 'Upper-case currency code (USD, EUR, GBP, USDC)' }) currency: string;
  @Field(() => Money) balance: Money;
  @Field(() => TreasuryWalletStatus) status: TreasuryWalletStatus;
  @Field(() => TreasuryDepositInstructions) depositInstructions: TreasuryDepositInstructions;
  @Field() livemode: boolean;
  @Field() createdAt: Date;

  static from({ wallet, balance }: TreasuryWalletView): TreasuryWallet {
    return Object.assign(new TreasuryWallet(), {
      id: wallet.id, partnerEndUserId: wallet.endUserId, currency: wallet.currency, balance: Money.of(balance, wallet.currency), status: wallet.status,
      // GraphQL keeps its upper-case convention; the shared object is REST's and the webhooks' (lower case).
      depositInstructions: Object.assign(new TreasuryDepositInstructions(), depositInstructionsObject(wallet), { currency: wallet.currency }), livemode: wallet.livemode, createdAt: wallet.createdAt,
    });
  }
}

@ObjectType()
export class TreasuryWalletConnection extends Connection(TreasuryWallet, 'TreasuryWallet') {}

@ObjectType({ description: "Money that arrived on a wallet's deposit account (sandbox deposits)" })
export class TreasuryDeposit {
  @Field(() => ID, { description: 'The ledger transaction of the deposit' }) id: string;
  @Field(() => ID) walletId: string;
  @Field(() => ID) partnerEndUserId: string;
  @Field(() => Money) amount: Money;
  @Field(() => Money, { description: "The wallet's balance after the deposit" }) balance: Money;
  @Field() createdAt: Date;

  static from(row: DepositRow): TreasuryDeposit {
    const { wallet } = row;
    return Object.assign(new TreasuryDeposit(), {
      id: row.id, walletId: wallet.id, partnerEndUserId: wallet.endUserId, amount: Money.of(row.amount, wallet.currency),
      balance: Money.of(row.balance, wallet.currency), createdAt: row.createdAt,
    });
  }
}

@ObjectType({ description: "Money out of an end-user's wallet (REST: Treasury payout)", implements: Node })
export class TreasuryPayout extends Node {
  @Field(() => ID) partnerId: string;
  @Field(() => ID) partnerEndUserId: string;
  @Field(() => ID) partnerWalletId: string;
  @Field(() => Money, { description: "In the wallet's currency" }) amount: Money;
  @Field(() => TreasuryDestinationType) destinationType: TreasuryDestinationType;
  @Field(() => GraphQLJSONObject, { description: 'The destination as sent, account numbers, phones and addresses masked to their last 4 characters' })
  destinationDetails: Record<string, string>;
  @Field(() => TreasuryPayoutStatus) status: TreasuryPayoutStatus;
  @Field(() => String, { nullable: true, description: 'Null unless FAILED' }) failureReason: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'As sent, with idempotencyKey when one was given' }) metadata: Record<string, unknown> | null;
  @Field(() => Date, { nullable: true }) completedAt: Date | null;
  @Field() livemode: boolean;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: PayoutRow): TreasuryPayout {
    return Object.assign(new TreasuryPayout(), {
      id: row.id, partnerId: row.businessId, partnerEndUserId: row.endUserId, partnerWalletId: row.walletId, amount: Money.of(row.amount, row.currency),
      destinationType: row.destinationType, destinationDetails: { ...row.destinationDetails }, status: row.status, failureReason: row.failureReason,
      metadata: row.metadata, completedAt: row.completedAt, livemode: row.livemode, createdAt: row.createdAt, updatedAt: row.updatedAt,
    });
  }
}

@ObjectType()
export class TreasuryPayoutConnection extends Connection(TreasuryPayout, 'TreasuryPayout') {}

/** The fields of a GraphQL type a change set, from the entity properties the domain reports (`changed`); others are not on the type. */
const fieldsOf = (changed: readonly string[] | undefined, fields: readonly string[]) => (changed ?? []).filter((field) => fields.includes(field));

@ObjectType({ description: 'One change of a treasury payout: its creation (previousStatus null) or a move of its status' })
export class TreasuryPayoutUpdate {
  @Field(() => TreasuryPayout) treasuryPayout: TreasuryPayout;
  @Field(() => TreasuryPayoutStatus, { nullable: true, description: 'The status it left; null when this change created it' }) previousStatus: TreasuryPayoutStatus | null;
  @Field(() => [String], { description: 'The fields of treasuryPayout this change set: status first, then e.g. failureReason, completedAt' }) changedFields: string[];

  static of(payout: PayoutRow, previousStatus: TreasuryPayoutStatus | null | undefined, changed: readonly string[] | undefined): TreasuryPayoutUpdate {
    return Object.assign(new TreasuryPayoutUpdate(), {
      treasuryPayout: TreasuryPayout.from(payout), previousStatus: previousStatus ?? null,
      changedFields: fieldsOf(changed, ['status', 'failureReason', 'completedAt', 'metadata']),
    });
  }
}

@ObjectType({ description: 'One change of a KYC check: its start (previousStatus null) or its decision' })
export class TreasuryKycUpdate {
  @Field(() => TreasuryKycCheck) treasuryKycCheck: TreasuryKycCheck;
  @Field(() => KycStatus, { nullable: true, description: 'The status it left; null when this change started the check' }) previousStatus: KycStatus | null;
  @Field(() => [String], { description: 'The fields of treasuryKycCheck this change set: status first, then decidedAt (and rejectionReasons)' }) changedFields: string[];

  static of(check: KycCheckRow, previousStatus: KycStatus | null | undefined, changed: readonly string[] | undefined): TreasuryKycUpdate {
    return Object.assign(new TreasuryKycUpdate(), {
      treasuryKycCheck: TreasuryKycCheck.from(check), previousStatus: previousStatus ?? null,
      changedFields: fieldsOf(changed, ['status', 'rejectionReasons', 'decidedAt']),
    });
  }
}
