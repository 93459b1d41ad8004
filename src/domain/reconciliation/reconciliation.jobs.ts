import { AreaJobs, cronLine } from '../shared/jobs';
import { RECONCILE_ACQUIRER_TASK } from './reconciliation.job-names';
import type { ReconciliationService } from './reconciliation.service';

const DAY_MS = 86_400_000;

/** The UTC day before `now`: [its midnight, the next midnight). */
export function previousUtcDay(now: Date): { from: Date; to: Date } {
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { from: new Date(to.getTime() - DAY_MS), to };
}

export function reconciliationJobs(reconciliation: Pick<ReconciliationService, 'reconcileEach'>): AreaJobs {
  return {
    actor: 'reconciliation',
    tasks: {
      /**
       * Reconciles the previous UTC day, each configured provider's balance (a run each): a line
       * with the counts, and each difference at warn (the operator reads them with `tessera
       * reconcile` and GraphQL's operator fields; nothing is changed).
       */
      [RECONCILE_ACQUIRER_TASK]: async (_payload, log, system) => {
        const reports = await reconciliation.reconcileEach(system(), previousUtcDay(new Date()));
        for (const { run, differences } of reports) {
          const period = `${run.periodFrom.toISOString()} to ${run.periodTo.toISOString()}`;
          if (run.provider === null) {
            log.info(`reconciliation ${run.id} of ${period}: nothing to compare (no provider keeps a balance)`);
            continue;
          }
          log.info(
            `reconciliation ${run.id} of ${period} with ${run.provider}: ${run.transactions} transactions, ${run.matched} matched, ${run.skipped} not compared, ${run.differences} differences`,
          );
          for (const difference of differences)
            log.warn(
              `reconciliation ${run.id} (${run.provider}): ${difference.kind} ${difference.transactionType} ${difference.acquirerId ?? difference.acquirerTransactionId ?? '-'} (Tessera ${difference.tesseraId ?? 'none'}): provider ${difference.acquirerAmount ?? '-'} ${difference.acquirerCurrency ?? ''}, ledger ${difference.ledgerAmount ?? '-'} ${difference.ledgerCurrency ?? ''}`,
            );
        }
      },
    },
    // 02:10 UTC: past the margin the run reads around the day (an hour), away from the top of the hour.
    crontab: [cronLine('10 2 * * *', RECONCILE_ACQUIRER_TASK)],
  };
}
