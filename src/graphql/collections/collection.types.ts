import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType, createUnionType, registerEnumType } from 'type-graphql';
import {
  Collection as CollectionRow, CollectionInstructions as InstructionsRow, CollectionRailKind, CollectionSource, CollectionStatus,
} from '../../domain/collections/collection.entities';
import { SETTLEMENT_CURRENCY } from '../../domain/collections/collections.settings';
import { CollectionChannel as ChannelRow, networkIdsOf } from '../../providers/collection-rail/port';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';
import { Money } from '../shared/money.type';

registerEnumType(CollectionStatus, {
  name: 'CollectionStatus',
  description: 'pending -> processing (funds detected) -> completed (USDC wallet credited) or failed (amount mismatch, rejection); expired when unpaid at expiresAt',
});
registerEnumType(CollectionRailKind, { name: 'CollectionRail', description: 'How the payer pays: bank transfer, mobile money or EFT' });
registerEnumType(CollectionSource, { name: 'CollectionSource', description: 'What opened the collection: the API or a hosted checkout session' });

@ObjectType({ description: 'A channel a collection-rail provider offers, with its limits per collection' })
export class CollectionChannel {
  @Field(() => ID, { description: "The provider's channel id (createCollection's channelId)" }) id: string;
  @Field({ description: 'ISO 3166-1 alpha-2' }) country: string;
  @Field({ description: 'Upper-case currency code' }) currency: string;
  @Field(() => CollectionRailKind) rail: CollectionRailKind;
  @Field() provider: string;
  @Field(() => [String], { nullable: true, description: 'Mobile money: the operator network ids customer.networkId takes' }) networkIds: string[] | null;
  @Field(() => Money) minAmount: Money;
  @Field(() => Money) maxAmount: Money;

  static from(row: ChannelRow): CollectionChannel {
    return Object.assign(new CollectionChannel(), {
      id: row.id, country: row.country, currency: row.currency, rail: row.rail as CollectionRailKind, provider: row.provider,
      networkIds: networkIdsOf(row), minAmount: Money.of(row.minAmount, row.currency), maxAmount: Money.of(row.maxAmount, row.currency),
    });
  }
}

@ObjectType({ description: 'The channel a collection was routed to' })
export class CollectionChannelRoute {
  @Field(() => CollectionRailKind) rail: CollectionRailKind;
  @Field() provider: string;
  @Field(() => String, { nullable: true, description: "The provider's own channel id; null when the provider gave none" }) channelId: string | null;
  @Field(() => String, { nullable: true, description: 'The operator network routed to: customer.networkId as sent; never a channel id' }) networkId: string | null;
}

@ObjectType({ description: 'Pay by bank transfer to this account' })
export class BankTransferInstructions {
  @Field() kind: 'bank_transfer';
  @Field() bankName: string;
  @Field() accountNumber: string;
  @Field() accountName: string;
  @Field(() => String, { nullable: true, description: 'Null when the account itself identifies the payment' }) reference: string | null;
}

@ObjectType({ description: 'A prompt was sent to the phone: the payer approves it there' })
export class MomoPromptInstructions {
  @Field() kind: 'momo_prompt';
  @Field() phone: string;
  @Field() prompt: string;
}

@ObjectType({ description: "Tessera's page with the instructions" })
export class HostedPageInstructions {
  @Field() kind: 'hosted_page';
  @Field() url: string;
  @Field() provider: string;
}

export const CollectionInstructions = createUnionType({
  name: 'CollectionInstructions',
  description: 'What the payer is told to do, by kind',
  types: () => [BankTransferInstructions, MomoPromptInstructions, HostedPageInstructions] as const,
  resolveType: (value: { kind: string }) => ({ bank_transfer: 'BankTransferInstructions', momo_prompt: 'MomoPromptInstructions', hosted_page: 'HostedPageInstructions' })[value.kind],
});

const instructionsOf = (row: InstructionsRow) => {
  const target = { bank_transfer: BankTransferInstructions, momo_prompt: MomoPromptInstructions, hosted_page: HostedPageInstructions }[row.kind];
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
  @Field(() => CollectionStatus) status: CollectionStatus;
  @Field(() => Money) amount: Money;
  @Field({ description: 'ISO 3166-1 alpha-2' }) country: string;
  @Field() expiresAt: Date;
  @Field(() => CollectionChannelRoute) channel: CollectionChannelRoute;
  @Field(() => CollectionInstructions) instructions: typeof CollectionInstructions;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata: Record<string, unknown> | null;
  @Field() businessPaymentId: string;
  @Field(() => CollectionSource) source: CollectionSource;
  @Field(() => Money, { nullable: true, description: 'What the payer sent, as the rail reported it' }) amountReceived: Money | null;
  @Field(() => String, { nullable: true, description: 'Failed collections only: amount_mismatch or the rail reason' }) failureReason: string | null;
  @Field(() => CollectionSettlement, { nullable: true, description: 'Completed collections only' }) settlement: CollectionSettlement | null;
  @Field() livemode: boolean;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: CollectionRow): Collection {
    const usdc = (minor: bigint) => Money.of(minor, SETTLEMENT_CURRENCY);
    return Object.assign(new Collection(), {
      id: row.id, status: row.status, amount: Money.of(row.amount, row.currency), country: row.country, expiresAt: row.expiresAt,
      channel: Object.assign(new CollectionChannelRoute(), { rail: row.rail, provider: row.provider, channelId: row.channelId, networkId: row.networkId }),
      instructions: instructionsOf(row.instructions), metadata: row.metadata, businessPaymentId: row.businessPaymentId, source: row.source,
      amountReceived: row.amountReceived === null ? null : Money.of(row.amountReceived, row.currency), failureReason: row.failureReason,
      settlement: row.settlementNet === null ? null : Object.assign(new CollectionSettlement(), {
        rate: row.settlementRate, grossAmount: usdc(row.settlementGross!), fee: usdc(row.settlementFee!), netAmount: usdc(row.settlementNet),
      }),
      livemode: row.livemode, createdAt: row.createdAt, updatedAt: row.updatedAt,
    });
  }
}

@ObjectType()
export class CollectionConnection extends Connection(Collection, 'Collection') {}

/** Entity properties a change reports, as the fields of Collection they show in (the settlement's four columns are one field). */
const FIELD_OF_PROPERTY: Record<string, string> = {
  status: 'status', amountReceived: 'amountReceived', failureReason: 'failureReason',
  settlementRate: 'settlement', settlementGross: 'settlement', settlementFee: 'settlement', settlementNet: 'settlement',
};

@ObjectType({ description: 'One change of a collection: its creation (previousStatus null) or a move of its status' })
export class CollectionUpdate {
  @Field(() => Collection) collection: Collection;
  @Field(() => CollectionStatus, { nullable: true, description: 'The status it left; null when this change created it' }) previousStatus: CollectionStatus | null;
  @Field(() => [String], { description: 'The fields of collection this change set: status first, then e.g. amountReceived, failureReason, settlement' })
  changedFields: string[];

  static of(row: CollectionRow, previousStatus: CollectionStatus | null | undefined, changed: readonly string[] | undefined): CollectionUpdate {
    const fields = (changed ?? []).map((property) => FIELD_OF_PROPERTY[property]).filter((field): field is string => field !== undefined);
    return Object.assign(new CollectionUpdate(), { collection: Collection.from(row), previousStatus: previousStatus ?? null, changedFields: [...new Set(fields)] });
  }
}

@InputType({ description: 'The payer: mobile money needs phone and networkId' })
export class CollectionCustomerInput {
  @Field({ nullable: true }) email?: string;
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true, description: 'International format, e.g. +233241234567' }) phone?: string;
  @Field({ nullable: true, description: 'An operator network id such as mtn-gh (never a channel id)' }) networkId?: string;
}

@InputType({ description: 'POST /business/collections' })
export class CreateCollectionInput {
  @Field({ description: 'Integer in minor units of the currency, as a string of digits ("5000000" is 50,000.00 NGN)' }) amount: string;
  @Field({ description: 'Currency code, any case' }) currency: string;
  @Field({ description: 'ISO 3166-1 alpha-2' }) country: string;
  @Field(() => CollectionRailKind) rail: CollectionRailKind;
  @Field({ nullable: true, description: 'A channel id of collectionChannels (default: the only channel of country, currency and rail)' }) channelId?: string;
  @Field(() => CollectionCustomerInput, { nullable: true }) customer?: CollectionCustomerInput;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
  @Field({ nullable: true, description: '300 to 604800 (default 3600)' }) expiresInSeconds?: number;
  @Field({ nullable: true, description: 'Your reference of the payment, unique per business and mode (default: bp_…)' }) businessPaymentId?: string;
}

@InputType({ description: 'POST /business/sandbox/collections/{id}/pay' })
export class PaySandboxCollectionInput {
  @Field(() => ID, { description: 'The collection paid' }) id: string;
  @Field({ description: 'Minor units of the collection currency, as a string of digits: the same amount completes it, another fails it (amount_mismatch)' })
  amount: string;
}
