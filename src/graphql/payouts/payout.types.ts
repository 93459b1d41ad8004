import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { BatchCounts, BatchStatus, BatchView } from '../../domain/payouts/batch.service';
import {
  Payout as PayoutRow, PayoutQuote as PayoutQuoteRow, PayoutRailKind, PayoutStatus, Recipient as RecipientRow,
} from '../../domain/payouts/payout.entities';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';
import { Money } from '../shared/money.type';

registerEnumType(PayoutStatus, {
  name: 'PayoutStatus',
  description: 'CREATED (wallet debited) -> SUBMITTED (with the rail) -> SETTLED or FAILED (debit reversed); CANCELLED before dispatch; PENDING_REVIEW held for an OWNER or ADMIN',
});
registerEnumType(PayoutRailKind, { name: 'PayoutRail', description: 'How money reaches the recipient' });
registerEnumType(BatchStatus, {
  name: 'PayoutBatchStatus',
  description: 'PROCESSING while any payout can still move; then COMPLETED (all settled), FAILED (none settled) or PARTIALLY_COMPLETED',
});

@ObjectType({ description: 'A saved payout destination; account numbers, phones and addresses show their last 4 characters only', implements: Node })
export class PayoutRecipient extends Node {
  @Field(() => ID, { description: 'The business the recipient belongs to (as in the REST Recipient)' }) businessId: string;
  @Field() label: string;
  @Field(() => PayoutRailKind) rail: PayoutRailKind;
  @Field({ description: 'The currency the recipient receives' }) currency: string;
  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2; null for crypto' }) country: string | null;
  @Field(() => GraphQLJSONObject, { description: "The rail's account fields, masked" }) detailsMasked: Record<string, string>;
  @Field(() => Date, { nullable: true, description: 'When a dashboard create screened it clean; null when never screened (API-key creates)' })
  screenedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'Archived recipients take no new payouts' }) archivedAt: Date | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: RecipientRow): PayoutRecipient {
    return Object.assign(new PayoutRecipient(), {
      id: row.id, businessId: row.businessId, label: row.label, rail: row.rail, currency: row.currency, country: row.country, detailsMasked: { ...row.detailsMasked },
      screenedAt: row.screenedAt, archivedAt: row.archivedAt, createdAt: row.createdAt, updatedAt: row.updatedAt,
    });
  }
}

@ObjectType()
export class PayoutRecipientConnection extends Connection(PayoutRecipient, 'PayoutRecipient') {}

@ObjectType({ description: 'A conversion offered for 5 minutes: `amount` of the wallet currency pays out `dstAmount`, for `serviceFee`', implements: Node })
export class PayoutQuote extends Node {
  @Field(() => Money, { description: 'In the source wallet currency' }) amount: Money;
  @Field(() => Money, { description: 'What the recipient receives, in the destination currency' }) dstAmount: Money;
  @Field(() => Money, { description: 'In the source wallet currency, debited on top of the amount' }) serviceFee: Money;
  @Field({ description: 'Destination units per source unit, spread included (8 decimals)' }) rate: string;
  @Field({ description: "ISO 3166-1 alpha-2; '' for crypto" }) country: string;
  @Field(() => PayoutRailKind) rail: PayoutRailKind;
  @Field() expiresAt: Date;
  @Field() createdAt: Date;

  static from(row: PayoutQuoteRow): PayoutQuote {
    return Object.assign(new PayoutQuote(), {
      id: row.id, amount: Money.of(row.amount, row.currency), dstAmount: Money.of(row.dstAmount, row.destinationCurrency),
      serviceFee: Money.of(row.serviceFee, row.currency), rate: row.rate, country: row.country, rail: row.rail,
      expiresAt: row.expiresAt, createdAt: row.createdAt,
    });
  }
}

@ObjectType({ description: 'The destination as a payout shows it (for mobile money the network, for crypto the chain, stands as bankName)' })
export class PayoutDestinationMasked {
  @Field() country: string;
  @Field() accountNumber: string;
  @Field() bankName: string;
}

@ObjectType({ description: 'Money out of a merchant wallet to a recipient', implements: Node })
export class Payout extends Node {
  @Field(() => PayoutStatus) status: PayoutStatus;
  @Field(() => PayoutRailKind) rail: PayoutRailKind;
  @Field(() => Money, { description: 'Debited from the wallet, before the fee' }) amount: Money;
  @Field(() => Money, { description: 'Debited from the wallet on top of the amount (returned on failure or cancellation)' }) serviceFee: Money;
  @Field(() => Money, { description: 'What the recipient receives' }) destinationAmount: Money;
  @Field({ description: 'Destination units per source unit (8 decimals)' }) rate: string;
  @Field(() => ID) recipientId: string;
  @Field(() => PayoutDestinationMasked) destinationMasked: PayoutDestinationMasked;
  @Field(() => String, { nullable: true, description: "The rail's reference, once submitted" }) providerRef: string | null;
  @Field(() => String, { nullable: true }) failureReason: string | null;
  @Field(() => String, { nullable: true }) reference: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata: Record<string, unknown> | null;
  @Field(() => ID, { nullable: true }) batchId: string | null;
  @Field(() => Date, { nullable: true }) settledAt: Date | null;
  @Field() livemode: boolean;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: PayoutRow): Payout {
    return Object.assign(new Payout(), {
      id: row.id, status: row.status, rail: row.rail,
      amount: Money.of(row.amount, row.currency),
      serviceFee: Money.of(row.serviceFee, row.currency),
      destinationAmount: Money.of(row.dstAmount, row.destinationCurrency),
      rate: row.rate, recipientId: row.recipientId,
      destinationMasked: Object.assign(new PayoutDestinationMasked(), row.destinationMasked),
      providerRef: row.providerRef, failureReason: row.failureReason, reference: row.reference, metadata: row.metadata,
      batchId: row.batchId, settledAt: row.settledAt, livemode: row.livemode, createdAt: row.createdAt, updatedAt: row.updatedAt,
    });
  }
}

@ObjectType()
export class PayoutConnection extends Connection(Payout, 'Payout') {}

@ObjectType({ description: "How many of a batch's payouts are in each status" })
export class PayoutBatchCounts implements BatchCounts {
  @Field(() => Int) created: number;
  @Field(() => Int) submitted: number;
  @Field(() => Int) settled: number;
  @Field(() => Int) failed: number;
  @Field(() => Int) cancelled: number;
  @Field(() => Int) pendingReview: number;
}

@ObjectType({ description: 'Payouts created together, all or none; each is an ordinary payout', implements: Node })
export class PayoutBatch extends Node {
  @Field(() => String, { nullable: true }) name: string | null;
  @Field(() => BatchStatus) status: BatchStatus;
  @Field(() => Int) itemCount: number;
  @Field(() => Money, { description: "Sum of the items' amounts (fees not included)" }) totalAmount: Money;
  @Field(() => PayoutBatchCounts) counts: PayoutBatchCounts;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from({ batch, counts, status }: BatchView): PayoutBatch {
    return Object.assign(new PayoutBatch(), {
      id: batch.id, name: batch.name, status, itemCount: batch.itemCount, totalAmount: Money.of(batch.totalAmount, batch.currency),
      counts: Object.assign(new PayoutBatchCounts(), counts), createdAt: batch.createdAt, updatedAt: batch.updatedAt,
    });
  }
}

@ObjectType()
export class PayoutBatchConnection extends Connection(PayoutBatch, 'PayoutBatch') {}

/**
 * The fields of a GraphQL object that a change set: every field when the change created the object
 * (`changed` null), else the domain's changed properties that the type shows (updatedAt, which
 * every change sets, is not listed).
 */
export function changedFieldsOf(object: object, changed: readonly string[] | null | undefined): string[] {
  const fields = Object.keys(object).filter((field) => field !== 'updatedAt');
  return changed == null ? fields : changed.filter((field) => fields.includes(field));
}

@ObjectType({ description: 'One change of a payout: the payout as it now reads, its status before the change and the fields the change set' })
export class PayoutUpdate {
  @Field(() => Payout) payout: Payout;
  @Field(() => PayoutStatus, { nullable: true, description: 'The status before this change (the same as payout.status when the status did not change); null when the change created the payout' })
  previousStatus: PayoutStatus | null;
  @Field(() => [String], { description: 'The fields of payout this change set (every field when it created the payout; updatedAt is not listed), e.g. ["status"], ["providerRef"], ["status", "failureReason"]' })
  changedFields: string[];

  static of(payout: Payout, change: { previousStatus: PayoutStatus | null; changedFields: readonly string[] | null }): PayoutUpdate {
    return Object.assign(new PayoutUpdate(), { payout, previousStatus: change.previousStatus, changedFields: changedFieldsOf(payout, change.changedFields) });
  }
}
