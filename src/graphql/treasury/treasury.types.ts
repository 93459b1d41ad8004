import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import {
  depositInstructionsObject,
  EndUserStatus,
  KycLevel,
  KycStatus,
  TreasuryDeposit as DepositRow,
  TreasuryDestinationType,
  TreasuryEndUser as EndUserRow,
  TreasuryKycCheck as KycCheckRow,
  TreasuryPayout as PayoutRow,
  TreasuryPayoutStatus,
  TreasuryWalletStatus,
  TreasuryWalletView,
} from '../../domain/treasury';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';
import { Money } from '../shared/money.type';

registerEnumType(EndUserStatus, {
  name: 'TreasuryEndUserStatus',
  description:
    'PENDING_KYC until its KYC check is decided, then ACTIVE (approved) or REJECTED; REST writes them pending_kyc, active, rejected',
  valuesConfig: {
    PENDING_KYC: {
      description: 'Created, or a new KYC check started after a rejection: waiting for the check to be decided',
    },
    ACTIVE: { description: 'Its KYC check was APPROVED (final): it may open wallets' },
    REJECTED: { description: 'Its latest KYC check was REJECTED; a new check may be started' },
  },
});
registerEnumType(KycStatus, {
  name: 'TreasuryKycStatus',
  description: 'PENDING until the check is decided, then APPROVED or REJECTED',
  valuesConfig: {
    PENDING: {
      description:
        "Started and not decided yet (in the sandbox, until the tester approves or rejects it); the end-user's only open check",
    },
    APPROVED: { description: 'Approved (final): the end-user is ACTIVE' },
    REJECTED: { description: 'Rejected, with rejectionReasons: the end-user is REJECTED until a new check is started' },
  },
});
registerEnumType(KycLevel, {
  name: 'TreasuryKycLevel',
  description: 'How thorough the identity check is (BASIC by default); REST writes them basic, full',
  valuesConfig: {
    BASIC: { description: 'The basic identity check, the default when no level is given' },
    FULL: { description: 'The full identity check' },
  },
});
registerEnumType(TreasuryWalletStatus, {
  name: 'TreasuryWalletStatus',
  description: "A treasury wallet's state; REST writes it active",
  valuesConfig: {
    ACTIVE: { description: 'Open: it receives deposits and pays out (the only state a wallet has so far)' },
  },
});
registerEnumType(TreasuryPayoutStatus, {
  name: 'TreasuryPayoutStatus',
  description:
    'PENDING (wallet debited) -> PROCESSING (with the rail) -> COMPLETED or FAILED (debit reversed); CANCELLED while PENDING (debit reversed)',
  valuesConfig: {
    PENDING: {
      description: 'Created and the wallet debited; not yet handed to the rail, so it can still be cancelled',
    },
    PROCESSING: { description: 'Handed to the treasury rail, waiting for its report; it can no longer be cancelled' },
    COMPLETED: { description: 'The rail paid it out (final); completedAt says when' },
    FAILED: { description: 'The rail failed it (final): failureReason says why, and the debit was reversed' },
    CANCELLED: { description: 'Cancelled while PENDING (final): the debit was reversed' },
  },
});
registerEnumType(TreasuryDestinationType, {
  name: 'TreasuryDestinationType',
  description: 'Where a treasury payout sends the money; REST writes them bank_account, mobile_money, crypto',
  valuesConfig: {
    BANK_ACCOUNT: {
      description: 'A bank account: accountNumber, routingNumber or bankCode, accountName, country (bankName optional)',
    },
    CRYPTO: { description: 'A chain address: address and chain' },
    MOBILE_MONEY: { description: 'A mobile money wallet: phone, networkId, country (accountName optional)' },
  },
});

@ObjectType({ description: "A treasury partner's end-user (REST: Treasury end-user)", implements: Node })
export class TreasuryEndUser extends Node {
  @Field(() => ID, { description: 'The partner (business) id' }) partnerId: string;
  @Field({ description: "The partner's own id of the end-user, unique per partner and mode" }) externalId: string;
  @Field({ description: "The end-user's email address, lower-cased" }) email: string;
  @Field(() => EndUserStatus, { description: 'Where the end-user stands with KYC: PENDING_KYC, ACTIVE or REJECTED' })
  status: EndUserStatus;
  @Field(() => String, { nullable: true, description: "The end-user's name (null when not given)" }) name:
    string | null;
  @Field(() => String, {
    nullable: true,
    description: "The end-user's phone number as given, e.g. +14155550100 (null when not given)",
  })
  phone: string | null;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Your key-values as given at creation (null when not given)',
  })
  metadata: Record<string, unknown> | null;
  @Field({ description: 'True for a live-mode end-user, false for a test-mode (sandbox) one' }) livemode: boolean;
  @Field({ description: 'When the end-user was created (ISO 8601, UTC)' }) createdAt: Date;
  @Field({ description: 'When the end-user last changed, e.g. its status after a KYC decision (ISO 8601, UTC)' })
  updatedAt: Date;

  static from(row: EndUserRow): TreasuryEndUser {
    return Object.assign(new TreasuryEndUser(), {
      id: row.id,
      partnerId: row.businessId,
      externalId: row.externalId,
      email: row.email,
      status: row.status,
      name: row.name,
      phone: row.phone,
      metadata: row.metadata,
      livemode: row.livemode,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: "A page of the partner's treasury end-users in the active mode, newest first" })
export class TreasuryEndUserConnection extends Connection(TreasuryEndUser, 'TreasuryEndUser') {}

@ObjectType({
  description:
    "One identity check of an end-user (REST: Treasury KYC record); the end-user's latest check is its KYC record",
  implements: Node,
})
export class TreasuryKycCheck extends Node {
  @Field(() => ID, { description: 'The id of the end-user checked' }) partnerEndUserId: string;
  @Field(() => KycStatus, { description: 'PENDING until the check is decided, then APPROVED or REJECTED' })
  status: KycStatus;
  @Field(() => KycLevel, { description: 'How thorough the check is: BASIC or FULL' }) level: KycLevel;
  @Field(() => [String], { description: 'Empty unless REJECTED' }) rejectionReasons: string[];
  @Field({
    description:
      "The page the end-user opens to go through the check (in the sandbox, Tessera's own page where the tester decides)",
  })
  kycLinkUrl: string;
  @Field(() => Date, { nullable: true, description: 'When it was approved or rejected' }) decidedAt: Date | null;
  @Field({ description: 'True for a live-mode check, false for a test-mode (sandbox) one' }) livemode: boolean;
  @Field({ description: 'When the check was started (ISO 8601, UTC)' }) createdAt: Date;
  @Field({ description: 'When the check last changed, e.g. its decision (ISO 8601, UTC)' }) updatedAt: Date;

  static from(row: KycCheckRow): TreasuryKycCheck {
    return Object.assign(new TreasuryKycCheck(), {
      id: row.id,
      partnerEndUserId: row.endUserId,
      status: row.status,
      level: row.level,
      rejectionReasons: [...row.rejectionReasons],
      kycLinkUrl: row.kycLinkUrl,
      decidedAt: row.decidedAt,
      livemode: row.livemode,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: "A page of an end-user's KYC checks, newest first" })
export class TreasuryKycCheckConnection extends Connection(TreasuryKycCheck, 'TreasuryKycCheck') {}

@ObjectType({
  description:
    "The end-user's check, and whether this call started it (false: its PENDING check is answered, as REST's 200)",
})
export class StartTreasuryKycResult {
  @Field(() => TreasuryKycCheck, { description: "The check this call started, or the end-user's PENDING one" })
  kyc: TreasuryKycCheck;
  @Field({
    description:
      "True when this call started a new check (REST's 201), false when it answered the PENDING one (REST's 200)",
  })
  created: boolean;
}

@ObjectType({
  description:
    'Where money reaches a wallet from outside (REST: Wallet deposit instructions): a fiat virtual account, or a chain address for USDC; fields that do not apply are null',
})
export class TreasuryDepositInstructions {
  @Field(() => ID, { description: 'The id of the wallet these instructions fund' }) walletId: string;
  @Field({ description: "The wallet's currency, upper case (REST answers it lower case)" }) currency: string;
  @Field(() => String, {
    nullable: true,
    description: 'Fiat: the virtual account number (null for EUR, which uses iban)',
  })
  accountNumber: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'Fiat: ABA routing number (USD), sort code (GBP) or bank code (NGN, KES, GHS, ZAR); null for EUR and USDC',
  })
  routingNumber: string | null;
  @Field(() => String, { nullable: true, description: 'EUR and GBP' }) iban: string | null;
  @Field(() => String, {
    nullable: true,
    description: "Fiat: the name of the rail's bank that holds the account (null for USDC)",
  })
  bankName: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'One of checking (USD), current (GBP), iban (EUR) or virtual (other fiat); null for USDC',
  })
  accountType: string | null;
  @Field(() => GraphQLJSONObject, {
    description:
      "The rail's instructions: method, scheme, beneficiaryName, reference, note; or asset, chain, address, memo, note",
  })
  depositInstructions: Record<string, string | null>;
  @Field(() => String, { nullable: true, description: 'USDC: the address to send to' }) cryptoDepositAddress:
    string | null;
  @Field(() => String, { nullable: true, description: 'USDC: its chain' }) cryptoDepositChain: string | null;
  @Field(() => String, { nullable: true, description: 'USDC: the same address' }) walletAddress: string | null;
  @Field(() => String, { nullable: true, description: 'USDC: the same chain' }) chain: string | null;
}

@ObjectType({
  description:
    "An end-user's wallet in one currency, its balance from its own ledger account (never the partner's merchant wallet)",
  implements: Node,
})
export class TreasuryWallet extends Node {
  @Field(() => ID, { description: 'The id of the end-user who owns the wallet' }) partnerEndUserId: string;
  @Field({
    description: 'Upper-case currency code (USD, EUR, GBP, NGN, KES, GHS, ZAR or USDC; REST answers it lower case)',
  })
  currency: string;
  @Field(() => Money, { description: "The wallet's balance, read from its own ledger account, in its currency" })
  balance: Money;
  @Field(() => TreasuryWalletStatus, { description: "The wallet's state: ACTIVE" }) status: TreasuryWalletStatus;
  @Field(() => TreasuryDepositInstructions, {
    description: "Where money reaches this wallet from outside (REST's deposit instructions, field for field)",
  })
  depositInstructions: TreasuryDepositInstructions;
  @Field({ description: 'True for a live-mode wallet, false for a test-mode (sandbox) one' }) livemode: boolean;
  @Field({ description: 'When the wallet was opened (ISO 8601, UTC)' }) createdAt: Date;

  static from({ wallet, balance }: TreasuryWalletView): TreasuryWallet {
    return Object.assign(new TreasuryWallet(), {
      id: wallet.id,
      partnerEndUserId: wallet.endUserId,
      currency: wallet.currency,
      balance: Money.of(balance, wallet.currency),
      status: wallet.status,
      // GraphQL keeps its upper-case convention; the shared object is REST's and the webhooks' (lower case).
      depositInstructions: Object.assign(new TreasuryDepositInstructions(), depositInstructionsObject(wallet), {
        currency: wallet.currency,
      }),
      livemode: wallet.livemode,
      createdAt: wallet.createdAt,
    });
  }
}

@ObjectType({ description: "A page of an end-user's treasury wallets, newest first" })
export class TreasuryWalletConnection extends Connection(TreasuryWallet, 'TreasuryWallet') {}

@ObjectType({ description: "Money that arrived on a wallet's deposit account (sandbox deposits)" })
export class TreasuryDeposit {
  @Field(() => ID, { description: 'The ledger transaction of the deposit' }) id: string;
  @Field(() => ID, { description: 'The id of the wallet credited' }) walletId: string;
  @Field(() => ID, { description: 'The id of the end-user who owns the wallet' }) partnerEndUserId: string;
  @Field(() => Money, { description: "The amount credited, in the wallet's currency" }) amount: Money;
  @Field(() => Money, { description: "The wallet's balance after the deposit" }) balance: Money;
  @Field({ description: 'When the deposit was credited (ISO 8601, UTC)' }) createdAt: Date;

  static from(row: DepositRow): TreasuryDeposit {
    const { wallet } = row;
    return Object.assign(new TreasuryDeposit(), {
      id: row.id,
      walletId: wallet.id,
      partnerEndUserId: wallet.endUserId,
      amount: Money.of(row.amount, wallet.currency),
      balance: Money.of(row.balance, wallet.currency),
      createdAt: row.createdAt,
    });
  }
}

@ObjectType({ description: "Money out of an end-user's wallet (REST: Treasury payout)", implements: Node })
export class TreasuryPayout extends Node {
  @Field(() => ID, { description: 'The partner (business) id' }) partnerId: string;
  @Field(() => ID, { description: 'The id of the end-user paying out' }) partnerEndUserId: string;
  @Field(() => ID, { description: 'The id of the wallet paid from' }) partnerWalletId: string;
  @Field(() => Money, { description: "In the wallet's currency" }) amount: Money;
  @Field(() => TreasuryDestinationType, {
    description: 'The kind of destination: BANK_ACCOUNT, MOBILE_MONEY or CRYPTO',
  })
  destinationType: TreasuryDestinationType;
  @Field(() => GraphQLJSONObject, {
    description: 'The destination as sent, account numbers, phones and addresses masked to their last 4 characters',
  })
  destinationDetails: Record<string, string>;
  @Field(() => TreasuryPayoutStatus, {
    description: 'PENDING, PROCESSING, then COMPLETED or FAILED; or CANCELLED while PENDING',
  })
  status: TreasuryPayoutStatus;
  @Field(() => String, { nullable: true, description: 'Null unless FAILED' }) failureReason: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'As sent, with idempotencyKey when one was given' })
  metadata: Record<string, unknown> | null;
  @Field(() => Date, { nullable: true, description: 'When the rail completed it (null unless COMPLETED)' })
  completedAt: Date | null;
  @Field({ description: 'True for a live-mode payout, false for a test-mode (sandbox) one' }) livemode: boolean;
  @Field({ description: 'When the payout was created and the wallet debited (ISO 8601, UTC)' }) createdAt: Date;
  @Field({ description: 'When the payout last changed, e.g. its status (ISO 8601, UTC)' }) updatedAt: Date;

  static from(row: PayoutRow): TreasuryPayout {
    return Object.assign(new TreasuryPayout(), {
      id: row.id,
      partnerId: row.businessId,
      partnerEndUserId: row.endUserId,
      partnerWalletId: row.walletId,
      amount: Money.of(row.amount, row.currency),
      destinationType: row.destinationType,
      destinationDetails: { ...row.destinationDetails },
      status: row.status,
      failureReason: row.failureReason,
      metadata: row.metadata,
      completedAt: row.completedAt,
      livemode: row.livemode,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: "A page of the partner's treasury payouts in the active mode, newest first" })
export class TreasuryPayoutConnection extends Connection(TreasuryPayout, 'TreasuryPayout') {}

/** The fields of a GraphQL type a change set, from the entity properties the domain reports (`changed`); others are not on the type. */
const fieldsOf = (changed: readonly string[] | undefined, fields: readonly string[]) =>
  (changed ?? []).filter((field) => fields.includes(field));

@ObjectType({
  description: 'One change of a treasury payout: its creation (previousStatus null) or a move of its status',
})
export class TreasuryPayoutUpdate {
  @Field(() => TreasuryPayout, {
    description: 'The payout as read when the message is sent: its status may already be later than this change',
  })
  treasuryPayout: TreasuryPayout;
  @Field(() => TreasuryPayoutStatus, {
    nullable: true,
    description: 'The status it left; null when this change created it',
  })
  previousStatus: TreasuryPayoutStatus | null;
  @Field(() => [String], {
    description: 'The fields of treasuryPayout this change set: status first, then e.g. failureReason, completedAt',
  })
  changedFields: string[];

  static of(
    payout: PayoutRow,
    previousStatus: TreasuryPayoutStatus | null | undefined,
    changed: readonly string[] | undefined,
  ): TreasuryPayoutUpdate {
    return Object.assign(new TreasuryPayoutUpdate(), {
      treasuryPayout: TreasuryPayout.from(payout),
      previousStatus: previousStatus ?? null,
      changedFields: fieldsOf(changed, ['status', 'failureReason', 'completedAt', 'metadata']),
    });
  }
}

@ObjectType({ description: 'One change of a KYC check: its start (previousStatus null) or its decision' })
export class TreasuryKycUpdate {
  @Field(() => TreasuryKycCheck, { description: 'The check as read when the message is sent' })
  treasuryKycCheck: TreasuryKycCheck;
  @Field(() => KycStatus, {
    nullable: true,
    description: 'The status it left; null when this change started the check',
  })
  previousStatus: KycStatus | null;
  @Field(() => [String], {
    description: 'The fields of treasuryKycCheck this change set: status first, then decidedAt (and rejectionReasons)',
  })
  changedFields: string[];

  static of(
    check: KycCheckRow,
    previousStatus: KycStatus | null | undefined,
    changed: readonly string[] | undefined,
  ): TreasuryKycUpdate {
    return Object.assign(new TreasuryKycUpdate(), {
      treasuryKycCheck: TreasuryKycCheck.from(check),
      previousStatus: previousStatus ?? null,
      changedFields: fieldsOf(changed, ['status', 'rejectionReasons', 'decidedAt']),
    });
  }
}
