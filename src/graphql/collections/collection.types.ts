import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType, createUnionType, registerEnumType } from 'type-graphql';
import {
  Collection as CollectionRow,
  CollectionInstructions as InstructionsRow,
  CollectionRailKind,
  CollectionSource,
  CollectionStatus,
  SETTLEMENT_CURRENCY,
} from '../../domain/collections';
import { CollectionChannel as ChannelRow, networkIdsOf } from '../../providers/collection-rail/port';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';
import { Money } from '../shared/money.type';

registerEnumType(CollectionStatus, {
  name: 'CollectionStatus',
  description:
    'PENDING -> PROCESSING (funds detected) -> COMPLETED (USDC wallet credited) or FAILED (amount mismatch, rejection); EXPIRED when unpaid at expiresAt',
  valuesConfig: {
    PENDING: { description: "Waiting for the payer's funds until expiresAt" },
    PROCESSING: { description: 'The rail detected the funds (amountReceived is set); settlement is under way' },
    COMPLETED: { description: 'Settled: the USDC wallet was credited netAmount (settlement is set); final' },
    FAILED: {
      description:
        'The rail reported a terminal failure, or settled another amount (amount_mismatch); nothing credited; final',
    },
    EXPIRED: { description: "Unpaid when expiresAt passed on the business's clock; final" },
  },
});
registerEnumType(CollectionRailKind, {
  name: 'CollectionRail',
  description: 'How the payer pays: bank transfer, mobile money or EFT',
  valuesConfig: {
    BANK: { description: 'Bank transfer to a virtual account of the collection (bank_transfer instructions)' },
    MOMO: { description: "Mobile money: a prompt pushed to the payer's phone (momo_prompt instructions)" },
    EFT: { description: "EFT quoting the reference shown on Tessera's page (hosted_page instructions)" },
  },
});
registerEnumType(CollectionSource, {
  name: 'CollectionSource',
  description: 'What opened the collection: the API or a hosted checkout session',
  valuesConfig: {
    API: { description: 'Opened with createCollection (REST: POST /business/collections)' },
    SESSION: { description: 'The payer chose a local rail on a hosted checkout page' },
  },
});

@ObjectType({ description: 'A channel a collection-rail provider offers, with its limits per collection' })
export class CollectionChannel {
  @Field(() => ID, { description: "The provider's channel id (createCollection's channelId)" }) id: string;
  @Field({ description: 'ISO 3166-1 alpha-2' }) country: string;
  @Field({ description: 'Upper-case currency code' }) currency: string;
  @Field(() => CollectionRailKind, { description: 'The rail the channel collects over' }) rail: CollectionRailKind;
  @Field({ description: 'The collection-rail provider, e.g. sandbox-momo' }) provider: string;
  @Field(() => [String], {
    nullable: true,
    description: 'Mobile money: the operator network ids customer.networkId takes',
  })
  networkIds: string[] | null;
  @Field(() => Money, { description: 'The smallest amount one collection may ask for, in the channel currency' })
  minAmount: Money;
  @Field(() => Money, { description: 'The largest amount one collection may ask for, in the channel currency' })
  maxAmount: Money;

  static from(row: ChannelRow): CollectionChannel {
    return Object.assign(new CollectionChannel(), {
      id: row.id,
      country: row.country,
      currency: row.currency,
      rail: row.rail as CollectionRailKind,
      provider: row.provider,
      networkIds: networkIdsOf(row),
      minAmount: Money.of(row.minAmount, row.currency),
      maxAmount: Money.of(row.maxAmount, row.currency),
    });
  }
}

@ObjectType({ description: 'The channel a collection was routed to' })
export class CollectionChannelRoute {
  @Field(() => CollectionRailKind, { description: 'The rail the collection uses' }) rail: CollectionRailKind;
  @Field({ description: 'The provider the collection was routed to, e.g. sandbox-bank' }) provider: string;
  @Field(() => String, {
    nullable: true,
    description: "The provider's own channel id; null when the provider gave none",
  })
  channelId: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'The operator network routed to: customer.networkId as sent; never a channel id',
  })
  networkId: string | null;
}

@ObjectType({ description: 'Pay by bank transfer to this account' })
export class BankTransferInstructions {
  @Field({ description: 'Always bank_transfer' }) kind: 'bank_transfer';
  @Field({ description: "The receiving bank's name" }) bankName: string;
  @Field({ description: 'The account to transfer to: a virtual account of this collection' }) accountNumber: string;
  @Field({ description: 'The account name the payer sees' }) accountName: string;
  @Field(() => String, { nullable: true, description: 'Null when the account itself identifies the payment' })
  reference: string | null;
}

@ObjectType({ description: 'A prompt was sent to the phone: the payer approves it there' })
export class MomoPromptInstructions {
  @Field({ description: 'Always momo_prompt' }) kind: 'momo_prompt';
  @Field({ description: 'The phone the prompt was pushed to (international format)' }) phone: string;
  @Field({ description: 'The text to show the payer, naming the network, amount and merchant' }) prompt: string;
}

@ObjectType({ description: "Tessera's page with the instructions" })
export class HostedPageInstructions {
  @Field({ description: 'Always hosted_page' }) kind: 'hosted_page';
  @Field({
    description: "Tessera's /collect/… page: the bank account, the amount and the reference the payer must quote",
  })
  url: string;
  @Field({ description: "The channel's provider" }) provider: string;
}

export const CollectionInstructions = createUnionType({
  name: 'CollectionInstructions',
  description: 'What the payer is told to do, by kind',
  types: () => [BankTransferInstructions, MomoPromptInstructions, HostedPageInstructions] as const,
  resolveType: (value: { kind: string }) =>
    ({
      bank_transfer: 'BankTransferInstructions',
      momo_prompt: 'MomoPromptInstructions',
      hosted_page: 'HostedPageInstructions',
    })[value.kind],
});

const instructionsOf = (row: InstructionsRow) => {
  const target = {
    bank_transfer: BankTransferInstructions,
    momo_prompt: MomoPromptInstructions,
    hosted_page: HostedPageInstructions,
  }[row.kind];
  return Object.assign(new target(), row);
};

@ObjectType({ description: 'The credit of a completed collection to the USDC wallet' })
export class CollectionSettlement {
  @Field({ description: 'USDC per unit of the collection currency (8 decimals)' }) rate: string;
  @Field(() => Money, { description: 'The amount converted at rate, rounded down' }) grossAmount: Money;
  @Field(() => Money, { description: 'The collection fee, rounded up' }) fee: Money;
  @Field(() => Money, { description: 'The gross amount less the fee: credited to the USDC wallet' }) netAmount: Money;
}

@ObjectType({ description: 'Money collected over a local rail, settled to the USDC wallet', implements: Node })
export class Collection extends Node {
  @Field(() => CollectionStatus, { description: 'Where the collection stands' }) status: CollectionStatus;
  @Field(() => Money, { description: 'The amount to collect, in the collection currency' }) amount: Money;
  @Field({ description: 'ISO 3166-1 alpha-2' }) country: string;
  @Field({
    description:
      "When an unpaid collection expires (ISO 8601, UTC), on the business's clock (the test clock in the sandbox)",
  })
  expiresAt: Date;
  @Field(() => CollectionChannelRoute, {
    description: 'The rail, provider, channel and network the collection was routed to',
  })
  channel: CollectionChannelRoute;
  @Field(() => CollectionInstructions, { description: 'What the payer is told to do, by kind (select with fragments)' })
  instructions: typeof CollectionInstructions;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Your key-value data as sent; null when none' })
  metadata: Record<string, unknown> | null;
  @Field({ description: 'Your reference of the payment, or bp_… made by Tessera; unique per business and mode' })
  businessPaymentId: string;
  @Field(() => CollectionSource, { description: 'What opened the collection' }) source: CollectionSource;
  @Field(() => Money, { nullable: true, description: 'What the payer sent, as the rail reported it' })
  amountReceived: Money | null;
  @Field(() => String, { nullable: true, description: 'Failed collections only: amount_mismatch or the rail reason' })
  failureReason: string | null;
  @Field(() => CollectionSettlement, { nullable: true, description: 'Completed collections only' })
  settlement: CollectionSettlement | null;
  @Field({ description: 'True in live mode, false in test mode' }) livemode: boolean;
  @Field({ description: "When the collection was created (ISO 8601, UTC), on the business's clock" }) createdAt: Date;
  @Field({ description: 'When the collection last changed (ISO 8601, UTC)' }) updatedAt: Date;

  static from(row: CollectionRow): Collection {
    const usdc = (minor: bigint) => Money.of(minor, SETTLEMENT_CURRENCY);
    return Object.assign(new Collection(), {
      id: row.id,
      status: row.status,
      amount: Money.of(row.amount, row.currency),
      country: row.country,
      expiresAt: row.expiresAt,
      channel: Object.assign(new CollectionChannelRoute(), {
        rail: row.rail,
        provider: row.provider,
        channelId: row.channelId,
        networkId: row.networkId,
      }),
      instructions: instructionsOf(row.instructions),
      metadata: row.metadata,
      businessPaymentId: row.businessPaymentId,
      source: row.source,
      amountReceived: row.amountReceived === null ? null : Money.of(row.amountReceived, row.currency),
      failureReason: row.failureReason,
      settlement:
        row.settlementNet === null
          ? null
          : Object.assign(new CollectionSettlement(), {
              rate: row.settlementRate,
              grossAmount: usdc(row.settlementGross!),
              fee: usdc(row.settlementFee!),
              netAmount: usdc(row.settlementNet),
            }),
      livemode: row.livemode,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: 'A page of collections, newest first' })
export class CollectionConnection extends Connection(Collection, 'Collection') {}

/** Entity properties a change reports, as the fields of Collection they show in (the settlement's four columns are one field). */
const FIELD_OF_PROPERTY: Record<string, string> = {
  status: 'status',
  amountReceived: 'amountReceived',
  failureReason: 'failureReason',
  settlementRate: 'settlement',
  settlementGross: 'settlement',
  settlementFee: 'settlement',
  settlementNet: 'settlement',
};

@ObjectType({ description: 'One change of a collection: its creation (previousStatus null) or a move of its status' })
export class CollectionUpdate {
  @Field(() => Collection, {
    description: 'The collection as it reads when the message is sent (it may already show a later status)',
  })
  collection: Collection;
  @Field(() => CollectionStatus, {
    nullable: true,
    description: 'The status it left; null when this change created it',
  })
  previousStatus: CollectionStatus | null;
  @Field(() => [String], {
    description:
      'The fields of collection this change set: status first, then e.g. amountReceived, failureReason, settlement',
  })
  changedFields: string[];

  static of(
    row: CollectionRow,
    previousStatus: CollectionStatus | null | undefined,
    changed: readonly string[] | undefined,
  ): CollectionUpdate {
    const fields = (changed ?? [])
      .map((property) => FIELD_OF_PROPERTY[property])
      .filter((field): field is string => field !== undefined);
    return Object.assign(new CollectionUpdate(), {
      collection: Collection.from(row),
      previousStatus: previousStatus ?? null,
      changedFields: [...new Set(fields)],
    });
  }
}

@InputType({ description: 'The payer: mobile money needs phone and networkId' })
export class CollectionCustomerInput {
  @Field({ nullable: true, description: "The payer's email address" }) email?: string;
  @Field({ nullable: true, description: "The payer's name (at most 200 characters)" }) name?: string;
  @Field({ nullable: true, description: 'International format, e.g. +233241234567' }) phone?: string;
  @Field({ nullable: true, description: 'An operator network id such as mtn-gh (never a channel id)' })
  networkId?: string;
}

@InputType({ description: 'POST /business/collections' })
export class CreateCollectionInput {
  @Field({ description: 'Integer in minor units of the currency, as a string of digits ("5000000" is 50,000.00 NGN)' })
  amount: string;
  @Field({ description: 'Currency code, any case' }) currency: string;
  @Field({ description: 'ISO 3166-1 alpha-2' }) country: string;
  @Field(() => CollectionRailKind, {
    description: 'Must be offered for the country and currency (see collectionChannels)',
  })
  rail: CollectionRailKind;
  @Field({
    nullable: true,
    description: 'A channel id of collectionChannels (default: the only channel of country, currency and rail)',
  })
  channelId?: string;
  @Field(() => CollectionCustomerInput, {
    nullable: true,
    description: 'The payer; required for MOMO (phone and networkId)',
  })
  customer?: CollectionCustomerInput;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Your key-value data, a JSON object of at most 8 KB' })
  metadata?: Record<string, unknown>;
  @Field({ nullable: true, description: '300 to 604800 (default 3600)' }) expiresInSeconds?: number;
  @Field({ nullable: true, description: 'Your reference of the payment, unique per business and mode (default: bp_…)' })
  businessPaymentId?: string;
}

@InputType({ description: 'POST /business/sandbox/collections/{id}/pay' })
export class PaySandboxCollectionInput {
  @Field(() => ID, { description: 'The collection paid' }) id: string;
  @Field({
    description:
      'Minor units of the collection currency, as a string of digits: the same amount completes it, another fails it (amount_mismatch)',
  })
  amount: string;
}
