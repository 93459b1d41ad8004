import type { Command } from 'commander';
import type { ReconciliationReport } from '../../domain/reconciliation';
import { DomainError, ErrorCode } from '../../domain/shared/errors';
import { toMajor } from '../../domain/shared/money';
import { operatorContext, print, withRuntime } from '../shared/run';

const DAY_MS = 86_400_000;

/** Reconciliation's operator command: `tessera reconcile --from <day> [--to <day>] [--provider <name>]` (docs/live.md, Reconciliation). */
export function commands(program: Command) {
  program
    .command('reconcile')
    .requiredOption('--from <day>', 'the first UTC day to reconcile, YYYY-MM-DD')
    .option('--to <day>', 'the last UTC day to reconcile, YYYY-MM-DD (included; the first day by default)')
    .option(
      '--provider <name>',
      'the provider whose balance to reconcile (stripe, yellowcard); the first configured one by default',
    )
    .description(
      "Compare a provider's balance transactions of the days (the card acquirer's by default) with the ledger and print the differences (exit 1 when there are some); nothing is changed",
    )
    .action(async (options: { from: string; to?: string; provider?: string }) => {
      const from = dayOf('from', options.from);
      const to = new Date(dayOf('to', options.to ?? options.from).getTime() + DAY_MS);
      await withRuntime(async (runtime) => {
        const report = await runtime.core.reconciliation.reconcile(operatorContext(runtime.dataSource, null, true), {
          from,
          to,
          provider: options.provider,
        });
        print(reportView(report));
        if (report.run.differences > 0) process.exitCode = 1;
      });
    });
}

/** A UTC day as the operator writes it (YYYY-MM-DD): its midnight. */
function dayOf(option: string, value: string): Date {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : null;
  if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value)
    throw new DomainError(ErrorCode.VALIDATION_ERROR, `--${option} must be a day, YYYY-MM-DD`, {
      [option]: ['a day, YYYY-MM-DD'],
    });
  return day;
}

const amountOf = (amount: bigint | null, currency: string | null) =>
  amount === null || currency === null ? null : toMajor(amount, currency);

function reportView({ run, differences }: ReconciliationReport) {
  return {
    run: {
      id: run.id,
      from: run.periodFrom.toISOString(),
      to: run.periodTo.toISOString(),
      provider: run.provider,
      acquirer: run.acquirer,
      status: run.status,
      transactions: run.transactions,
      matched: run.matched,
      notCompared: run.skipped,
      differences: run.differences,
      acquirerFees: Object.fromEntries(
        Object.entries(run.fees).map(([currency, minor]) => [currency, toMajor(BigInt(minor), currency)]),
      ),
    },
    differences: differences.map((difference) => ({
      kind: difference.kind,
      type: difference.transactionType,
      acquirerTransactionId: difference.acquirerTransactionId,
      acquirerId: difference.acquirerId,
      tesseraId: difference.tesseraId,
      acquirerAmount: amountOf(difference.acquirerAmount, difference.acquirerCurrency),
      acquirerCurrency: difference.acquirerCurrency,
      ledgerAmount: amountOf(difference.ledgerAmount, difference.ledgerCurrency),
      ledgerCurrency: difference.ledgerCurrency,
    })),
  };
}
