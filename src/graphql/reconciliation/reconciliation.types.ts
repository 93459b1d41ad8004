import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import {
  ReconciliationDifference as DifferenceRow,
  ReconciliationDifferenceKind,
  ReconciliationFee as FeeRow,
  ReconciliationRun as RunRow,
  ReconciliationRunStatus,
} from '../../domain/reconciliation';
import { Connection } from '../shared/connection';
import { Money } from '../shared/money.type';
import { Node } from '../shared/node';

registerEnumType(ReconciliationRunStatus, {
  name: 'ReconciliationRunStatus',
  description: "What a reconciliation run could do with the period's provider balance",
  valuesConfig: {
    COMPARED: { description: "The provider's balance transactions were compared with the ledger" },
    NOTHING_TO_COMPARE: { description: 'No configured provider keeps a balance (the sandbox): nothing was compared' },
  },
});

registerEnumType(ReconciliationDifferenceKind, {
  name: 'ReconciliationDifferenceKind',
  description: "How the provider's balance and Tessera's ledger disagree",
  valuesConfig: {
    MISSING_IN_LEDGER: {
      description: 'The provider moved money for a charge, refund or dispute that Tessera has no posting of',
    },
    MISSING_AT_ACQUIRER: {
      description: "Tessera booked a payment, refund or dispute of the provider's that its balance does not show",
    },
    AMOUNT_MISMATCH: { description: 'Both have it, with different amounts' },
    CURRENCY_MISMATCH: { description: 'Both have it, in different currencies' },
  },
});

const moneyOf = (amount: bigint | null, currency: string | null) =>
  amount === null || currency === null ? null : Money.of(amount, currency.toUpperCase());

@ObjectType({
  description:
    "A difference a reconciliation run found between the provider's balance and the ledger (nothing is changed)",
})
export class ReconciliationDifference {
  @Field(() => ReconciliationDifferenceKind, { description: 'How the two disagree' })
  kind: ReconciliationDifferenceKind;
  @Field({
    description:
      'What moved: charge, refund, refund_failure, dispute or dispute_reversal; a payout rail’s payout or collection',
  })
  transactionType: string;
  @Field(() => String, {
    nullable: true,
    description: "The provider's balance transaction (Stripe's txn_…); null when the provider shows none",
  })
  providerTransactionId: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The provider's id of the payment, refund or dispute (Stripe's pi_…, re_…, dp_…)",
  })
  providerId: string | null;
  @Field(() => ID, { nullable: true, description: "Tessera's payment, refund or dispute, when it has one" })
  tesseraId: string | null;
  @Field(() => Money, { nullable: true, description: "The amount in the provider's balance; null when missing there" })
  providerAmount: Money | null;
  @Field(() => Money, {
    nullable: true,
    description: "The amount of Tessera's posting; null when the ledger has none",
  })
  ledgerAmount: Money | null;

  static from(row: DifferenceRow): ReconciliationDifference {
    return Object.assign(new ReconciliationDifference(), {
      kind: row.kind,
      transactionType: row.transactionType,
      providerTransactionId: row.acquirerTransactionId,
      providerId: row.acquirerId,
      tesseraId: row.tesseraId,
      providerAmount: moneyOf(row.acquirerAmount, row.acquirerCurrency),
      ledgerAmount: moneyOf(row.ledgerAmount, row.ledgerCurrency),
    });
  }
}

@ObjectType({ description: "The provider's fee on one of its balance transactions (the platform's cost, not posted)" })
export class ReconciliationFee {
  @Field({ description: "The provider's balance transaction (Stripe's txn_…)" }) providerTransactionId: string;
  @Field({ description: 'What the transaction moved (charge, refund, dispute, or the provider’s own type)' })
  transactionType: string;
  @Field(() => String, { nullable: true, description: "The provider's id of what moved, when it names one" })
  providerId: string | null;
  @Field(() => ID, { nullable: true, description: "Tessera's payment, refund or dispute, when it has one" })
  tesseraId: string | null;
  @Field(() => Money, { description: "The fee, in the currency of the provider's balance" }) fee: Money;

  static from(row: FeeRow): ReconciliationFee {
    return Object.assign(new ReconciliationFee(), {
      providerTransactionId: row.acquirerTransactionId,
      transactionType: row.transactionType,
      providerId: row.acquirerId,
      tesseraId: row.tesseraId,
      fee: Money.of(row.fee, row.currency.toUpperCase()),
    });
  }
}

@ObjectType({
  description: "One reconciliation of a provider's balance with the ledger over a period [periodFrom, periodTo)",
  implements: Node,
})
export class ReconciliationRun extends Node {
  @Field(() => Date, { description: 'The start of the period (included), UTC' }) periodFrom: Date;
  @Field(() => Date, { description: 'The end of the period (excluded), UTC' }) periodTo: Date;
  @Field(() => String, {
    nullable: true,
    description: 'The provider compared (stripe); null when no configured provider keeps a balance',
  })
  provider: string | null;
  @Field(() => ReconciliationRunStatus, { description: 'Whether anything was compared' })
  status: ReconciliationRunStatus;
  @Field(() => Int, { description: "The provider's balance transactions of the period of a type compared" })
  transactions: number;
  @Field(() => Int, { description: 'Those found in the ledger with the same amount and currency' }) matched: number;
  @Field(() => Int, { description: 'Balance transactions of other types (payouts, top-ups): listed, not compared' })
  notCompared: number;
  @Field(() => Int, { description: 'How many differences the run found (its differences field lists them)' })
  differenceCount: number;
  @Field(() => [Money], { description: "The provider's fees of the period, one total per currency" })
  providerFees: Money[];
  @Field(() => Date, { description: 'When the run was made' }) createdAt: Date;

  static from(row: RunRow): ReconciliationRun {
    return Object.assign(new ReconciliationRun(), {
      id: row.id,
      periodFrom: row.periodFrom,
      periodTo: row.periodTo,
      provider: row.provider,
      status: row.status,
      transactions: row.transactions,
      matched: row.matched,
      notCompared: row.skipped,
      differenceCount: row.differences,
      providerFees: Object.entries(row.fees)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, minor]) => Money.of(BigInt(minor), currency.toUpperCase())),
      createdAt: row.createdAt,
    });
  }
}

@ObjectType({ description: 'A page of reconciliation runs, newest first' })
export class ReconciliationRunConnection extends Connection(ReconciliationRun, 'ReconciliationRun') {}
