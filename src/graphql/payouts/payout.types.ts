import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import {
  BatchCounts,
  BatchStatus,
  BatchView,
  Payout as PayoutRow,
  PayoutQuote as PayoutQuoteRow,
  PayoutRailKind,
  PayoutStatus,
  Recipient as RecipientRow,
} from '../../domain/payouts';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';
import { Money } from '../shared/money.type';

registerEnumType(PayoutStatus, {
  name: 'PayoutStatus',
  description:
    'CREATED (wallet debited) -> SUBMITTED (with the rail) -> SETTLED or FAILED (debit reversed); CANCELLED before dispatch; PENDING_REVIEW held for an OWNER or ADMIN',
  valuesConfig: {
    CREATED: {
      description:
        'Accepted and the wallet debited (amount + service fee); not yet with the rail, and the only status that can be cancelled',
    },
    SUBMITTED: {
      description:
        'Claimed for dispatch and handed to the rail (providerRef is set once the rail answers); it can no longer be cancelled',
    },
    SETTLED: { description: 'Final: the rail delivered the money to the recipient (settledAt is set)' },
    FAILED: {
      description:
        'Final: the rail failed it or a reviewer rejected it; the debit, fee included, was reversed (failureReason says why)',
    },
    CANCELLED: {
      description: 'Final: cancelled while CREATED, before dispatch; the debit, fee included, was reversed',
    },
    PENDING_REVIEW: {
      description:
        "Held for review (USD value at or above the business's review threshold, or the rail's compliance check): an OWNER or ADMIN approves it (CREATED, then dispatched) or rejects it (FAILED)",
    },
  },
});
registerEnumType(PayoutRailKind, {
  name: 'PayoutRail',
  description: 'How money reaches the recipient',
  valuesConfig: {
    LOCAL_BANK: {
      description:
        'A bank account: country, currency, bank code and name, account number and holder (sandbox service fee 1 %)',
    },
    MOBILE_MONEY: {
      description: 'A mobile-money wallet: country, currency, network, phone and holder (sandbox service fee 1.5 %)',
    },
    CRYPTO: { description: 'A wallet address on a chain, paid in USDC (sandbox service fee 0.5 %)' },
  },
});
registerEnumType(BatchStatus, {
  name: 'PayoutBatchStatus',
  description:
    'PROCESSING while any payout can still move; then COMPLETED (all settled), FAILED (none settled) or PARTIALLY_COMPLETED',
  valuesConfig: {
    PROCESSING: { description: 'At least one payout of the batch is still CREATED, SUBMITTED or PENDING_REVIEW' },
    COMPLETED: { description: 'Every payout of the batch SETTLED' },
    PARTIALLY_COMPLETED: { description: 'Every payout ended, some SETTLED and some FAILED or CANCELLED' },
    FAILED: { description: 'Every payout ended and none SETTLED (all FAILED or CANCELLED)' },
  },
});

@ObjectType({
  description: 'A saved payout destination; account numbers, phones and addresses show their last 4 characters only',
  implements: Node,
})
export class PayoutRecipient extends Node {
  @Field(() => ID, { description: 'The business the recipient belongs to (as in the REST Recipient)' })
  businessId: string;
  @Field({ description: 'The name the business gave the recipient (1 to 200 characters)' }) label: string;
  @Field(() => PayoutRailKind, {
    description: "The rail of the recipient's account, which decides the fields of detailsMasked",
  })
  rail: PayoutRailKind;
  @Field({ description: 'The currency the recipient receives' }) currency: string;
  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2; null for crypto' }) country: string | null;
  @Field(() => GraphQLJSONObject, { description: "The rail's account fields, masked" }) detailsMasked: Record<
    string,
    string
  >;
  @Field(() => Date, {
    nullable: true,
    description: 'When a dashboard create screened it clean; null when never screened (API-key creates)',
  })
  screenedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'Archived recipients take no new payouts' })
  archivedAt: Date | null;
  @Field({ description: 'When the recipient was created (ISO 8601, UTC)' }) createdAt: Date;
  @Field({
    description: 'When the recipient last changed: archived, un-archived or screened by a later create (ISO 8601, UTC)',
  })
  updatedAt: Date;

  static from(row: RecipientRow): PayoutRecipient {
    return Object.assign(new PayoutRecipient(), {
      id: row.id,
      businessId: row.businessId,
      label: row.label,
      rail: row.rail,
      currency: row.currency,
      country: row.country,
      detailsMasked: { ...row.detailsMasked },
      screenedAt: row.screenedAt,
      archivedAt: row.archivedAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: 'A page of payout recipients, newest first' })
export class PayoutRecipientConnection extends Connection(PayoutRecipient, 'PayoutRecipient') {}

@ObjectType({
  description:
    'A conversion offered for 5 minutes: `amount` of the wallet currency pays out `dstAmount`, for `serviceFee`',
  implements: Node,
})
export class PayoutQuote extends Node {
  @Field(() => Money, { description: 'In the source wallet currency' }) amount: Money;
  @Field(() => Money, { description: 'What the recipient receives, in the destination currency' }) dstAmount: Money;
  @Field(() => Money, { description: 'In the source wallet currency, debited on top of the amount' }) serviceFee: Money;
  @Field({ description: 'Destination units per source unit, spread included (8 decimals)' }) rate: string;
  @Field({ description: "ISO 3166-1 alpha-2; '' for crypto" }) country: string;
  @Field(() => PayoutRailKind, { description: 'The rail the quote prices (it decides the service fee rate)' })
  rail: PayoutRailKind;
  @Field({ description: 'When the quote stops being honoured: 5 minutes after createdAt (ISO 8601, UTC)' })
  expiresAt: Date;
  @Field({ description: 'When the quote was made (ISO 8601, UTC)' }) createdAt: Date;

  static from(row: PayoutQuoteRow): PayoutQuote {
    return Object.assign(new PayoutQuote(), {
      id: row.id,
      amount: Money.of(row.amount, row.currency),
      dstAmount: Money.of(row.dstAmount, row.destinationCurrency),
      serviceFee: Money.of(row.serviceFee, row.currency),
      rate: row.rate,
      country: row.country,
      rail: row.rail,
      expiresAt: row.expiresAt,
      createdAt: row.createdAt,
    });
  }
}

@ObjectType({
  description:
    'The destination as a payout shows it (for mobile money the network, for crypto the chain, stands as bankName)',
})
export class PayoutDestinationMasked {
  @Field({ description: "The destination's country, ISO 3166-1 alpha-2 (e.g. NG); empty for crypto" }) country: string;
  @Field({ description: 'The account number, phone or address, masked to its last 4 characters (e.g. ****6789)' })
  accountNumber: string;
  @Field({
    description: 'The bank; the mobile network id (e.g. mtn-gh) for MOBILE_MONEY, the chain (e.g. ethereum) for CRYPTO',
  })
  bankName: string;
}

@ObjectType({ description: 'Money out of a merchant wallet to a recipient', implements: Node })
export class Payout extends Node {
  @Field(() => PayoutStatus, { description: 'Where the payout is in its life (see PayoutStatus)' })
  status: PayoutStatus;
  @Field(() => PayoutRailKind, { description: "The recipient's rail the payout goes by" }) rail: PayoutRailKind;
  @Field(() => Money, { description: 'Debited from the wallet, before the fee' }) amount: Money;
  @Field(() => Money, {
    description: 'Debited from the wallet on top of the amount (returned on failure or cancellation)',
  })
  serviceFee: Money;
  @Field(() => Money, { description: 'What the recipient receives' }) destinationAmount: Money;
  @Field({ description: 'Destination units per source unit (8 decimals)' }) rate: string;
  @Field(() => ID, { description: 'The id of the recipient paid (UUID); the recipient field answers the object' })
  recipientId: string;
  @Field(() => PayoutDestinationMasked, {
    description: "The recipient's destination as it was when the payout was created, masked",
  })
  destinationMasked: PayoutDestinationMasked;
  @Field(() => String, { nullable: true, description: "The rail's reference, once submitted" }) providerRef:
    string | null;
  @Field(() => String, {
    nullable: true,
    description:
      "Why the payout FAILED: the rail's reason (e.g. account_invalid) or the reviewer's reject reason; null otherwise",
  })
  failureReason: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'The reference given at creation (up to 200 characters); null when none was given',
  })
  reference: string | null;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'The JSON object given at creation (up to 8 KB), as given; null when none was given',
  })
  metadata: Record<string, unknown> | null;
  @Field(() => ID, {
    nullable: true,
    description: 'The batch the payout was created in; null for a payout made on its own',
  })
  batchId: string | null;
  @Field(() => Date, {
    nullable: true,
    description: 'When the rail settled the payout (ISO 8601, UTC); null until SETTLED',
  })
  settledAt: Date | null;
  @Field({ description: 'True for a live-mode payout, false for a test (sandbox) one' }) livemode: boolean;
  @Field({ description: 'When the payout was accepted and the wallet debited (ISO 8601, UTC)' }) createdAt: Date;
  @Field({ description: 'When the payout last changed (ISO 8601, UTC)' }) updatedAt: Date;

  static from(row: PayoutRow): Payout {
    return Object.assign(new Payout(), {
      id: row.id,
      status: row.status,
      rail: row.rail,
      amount: Money.of(row.amount, row.currency),
      serviceFee: Money.of(row.serviceFee, row.currency),
      destinationAmount: Money.of(row.dstAmount, row.destinationCurrency),
      rate: row.rate,
      recipientId: row.recipientId,
      destinationMasked: Object.assign(new PayoutDestinationMasked(), row.destinationMasked),
      providerRef: row.providerRef,
      failureReason: row.failureReason,
      reference: row.reference,
      metadata: row.metadata,
      batchId: row.batchId,
      settledAt: row.settledAt,
      livemode: row.livemode,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: 'A page of payouts, newest first' })
export class PayoutConnection extends Connection(Payout, 'Payout') {}

@ObjectType({ description: "How many of a batch's payouts are in each status" })
export class PayoutBatchCounts implements BatchCounts {
  @Field(() => Int, { description: 'Payouts of the batch now CREATED' }) created: number;
  @Field(() => Int, { description: 'Payouts of the batch now SUBMITTED' }) submitted: number;
  @Field(() => Int, { description: 'Payouts of the batch now SETTLED' }) settled: number;
  @Field(() => Int, { description: 'Payouts of the batch now FAILED' }) failed: number;
  @Field(() => Int, { description: 'Payouts of the batch now CANCELLED' }) cancelled: number;
  @Field(() => Int, { description: 'Payouts of the batch now PENDING_REVIEW' }) pendingReview: number;
}

@ObjectType({ description: 'Payouts created together, all or none; each is an ordinary payout', implements: Node })
export class PayoutBatch extends Node {
  @Field(() => String, {
    nullable: true,
    description: 'The name given at creation (up to 200 characters); null when none was given',
  })
  name: string | null;
  @Field(() => BatchStatus, { description: "Read from the batch's payouts now (see PayoutBatchStatus)" })
  status: BatchStatus;
  @Field(() => Int, { description: 'How many payouts the batch created (1 to 1,000)' }) itemCount: number;
  @Field(() => Money, { description: "Sum of the items' amounts (fees not included)" }) totalAmount: Money;
  @Field(() => PayoutBatchCounts, { description: "How many of the batch's payouts are in each status now" })
  counts: PayoutBatchCounts;
  @Field({ description: 'When the batch and its payouts were created (ISO 8601, UTC)' }) createdAt: Date;
  @Field({
    description:
      'When the batch last changed (ISO 8601, UTC): a batch does not change after creation, so this is createdAt (status and counts are read from its payouts)',
  })
  updatedAt: Date;

  static from({ batch, counts, status }: BatchView): PayoutBatch {
    return Object.assign(new PayoutBatch(), {
      id: batch.id,
      name: batch.name,
      status,
      itemCount: batch.itemCount,
      totalAmount: Money.of(batch.totalAmount, batch.currency),
      counts: Object.assign(new PayoutBatchCounts(), counts),
      createdAt: batch.createdAt,
      updatedAt: batch.updatedAt,
    });
  }
}

@ObjectType({ description: 'A page of payout batches, newest first' })
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

@ObjectType({
  description:
    'One change of a payout: the payout as it now reads, its status before the change and the fields the change set',
})
export class PayoutUpdate {
  @Field(() => Payout, {
    description: 'The payout as read when this message is sent (a quicker later change may already show)',
  })
  payout: Payout;
  @Field(() => PayoutStatus, {
    nullable: true,
    description:
      'The status before this change (the same as payout.status when the status did not change); null when the change created the payout',
  })
  previousStatus: PayoutStatus | null;
  @Field(() => [String], {
    description:
      'The fields of payout this change set (every field when it created the payout; updatedAt is not listed), e.g. ["status"], ["providerRef"], ["status", "failureReason"]',
  })
  changedFields: string[];

  static of(
    payout: Payout,
    change: { previousStatus: PayoutStatus | null; changedFields: readonly string[] | null },
  ): PayoutUpdate {
    return Object.assign(new PayoutUpdate(), {
      payout,
      previousStatus: change.previousStatus,
      changedFields: changedFieldsOf(payout, change.changedFields),
    });
  }
}
