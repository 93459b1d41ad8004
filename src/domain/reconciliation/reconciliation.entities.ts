import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintTransformer } from '../shared/money';

/** What a run could do: compare the acquirer's balance with the ledger, or nothing (no acquirer keeps a balance: the sandbox). */
export enum ReconciliationRunStatus {
  COMPARED = 'compared',
  NOTHING_TO_COMPARE = 'nothing_to_compare',
}

/**
 * How the acquirer's balance and the ledger disagree:
 * - `missing_in_ledger`: the acquirer moved money for a charge, refund or dispute Tessera has no posting of;
 * - `missing_at_acquirer`: Tessera booked a payment, refund or dispute of the acquirer's in the
 *   period that the acquirer's balance does not show;
 * - `amount_mismatch`, `currency_mismatch`: both have it, with another amount or currency.
 */
export enum ReconciliationDifferenceKind {
  MISSING_IN_LEDGER = 'missing_in_ledger',
  MISSING_AT_ACQUIRER = 'missing_at_acquirer',
  AMOUNT_MISMATCH = 'amount_mismatch',
  CURRENCY_MISMATCH = 'currency_mismatch',
}

/** One reconciliation of the card acquirer's balance with the ledger over a period [from, to), with its counts. */
@Entity('reconciliation_runs')
@Check('ck_reconciliation_runs_period', `"period_to" > "period_from"`)
@Index('ix_reconciliation_runs_period', ['periodFrom', 'periodTo'])
@Index('ix_reconciliation_runs_provider', ['provider', 'createdAt'])
export class ReconciliationRun {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('timestamptz') periodFrom: Date;
  @Column('timestamptz') periodTo: Date;

  /** The provider whose balance was compared (`stripe`), or null when none keeps a balance. */
  @Column('text', { nullable: true }) provider: string | null;

  /** The card acquirer compared (`stripe`): the provider when it is the card acquirer, else null. */
  @Column('text', { nullable: true }) acquirer: string | null;

  @Column('text') status: ReconciliationRunStatus;

  /** The acquirer's balance transactions of the period of a type compared (charges, refunds, disputes). */
  @Column('integer') transactions: number;
  /** Those found in the ledger with the same amount and currency. */
  @Column('integer') matched: number;
  /** Balance transactions of other types (payouts, top-ups, …): listed, not compared. */
  @Column('integer') skipped: number;
  @Column('integer') differences: number;

  /** The acquirer's fees of the period, per currency, in minor units (a decimal string each). */
  @Column('jsonb') fees: Record<string, string>;

  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}

/** A difference a run found (nothing is changed because of it: the operator decides). */
@Entity('reconciliation_differences')
@Index('ix_reconciliation_differences_run', ['runId'])
export class ReconciliationDifference {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('uuid') runId: string;
  @Column('timestamptz') periodFrom: Date;
  @Column('timestamptz') periodTo: Date;
  /** The provider whose balance disagrees with the ledger (its run's). */
  @Column('text') provider: string;

  @Column('text') kind: ReconciliationDifferenceKind;

  /** What moved: `charge`, `refund`, `refund_failure`, `dispute`, `dispute_reversal`; a payout rail's `payout`, `collection`. */
  @Column('text') transactionType: string;

  /** The acquirer's balance transaction (Stripe's `txn_…`), null when the acquirer has none. */
  @Column('text', { nullable: true }) acquirerTransactionId: string | null;
  /** The acquirer's id of the payment, refund or dispute (Stripe's `pi_…`, `re_…`, `dp_…`). */
  @Column('text', { nullable: true }) acquirerId: string | null;
  /** Tessera's payment, refund or dispute, when it has one. */
  @Column('uuid', { nullable: true }) tesseraId: string | null;

  @Column('bigint', { nullable: true, transformer: bigintTransformer }) acquirerAmount: bigint | null;
  @Column('text', { nullable: true }) acquirerCurrency: string | null;
  @Column('bigint', { nullable: true, transformer: bigintTransformer }) ledgerAmount: bigint | null;
  @Column('text', { nullable: true }) ledgerCurrency: string | null;
}

/**
 * The acquirer's fee on one of its balance transactions (docs/decisions.md: the platform's cost,
 * reported here, not posted in the ledger), in the currency of the acquirer's balance.
 */
@Entity('reconciliation_fees')
@Index('ix_reconciliation_fees_run', ['runId'])
export class ReconciliationFee {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('uuid') runId: string;
  @Column('text') acquirerTransactionId: string;
  @Column('text') transactionType: string;
  @Column('text', { nullable: true }) acquirerId: string | null;
  @Column('uuid', { nullable: true }) tesseraId: string | null;
  @Column('bigint', { transformer: bigintTransformer }) fee: bigint;
  @Column('text') currency: string;
}
