import DataLoader from 'dataloader';
import { Core } from '../../domain/core';
import { RequestContext } from '../../domain/shared/context';
import { ReconciliationDifference, ReconciliationFee } from '../../domain/reconciliation';
import { groupBy } from '../shared/keyed';

/** Reconciliation's per-request DataLoaders: the differences and fees of a page of runs, one statement each. */
export interface ReconciliationLoaders {
  reconciliationDifferencesByRunId: DataLoader<string, ReconciliationDifference[]>;
  reconciliationFeesByRunId: DataLoader<string, ReconciliationFee[]>;
}

declare module '../shared/loaders' {
  interface Loaders extends ReconciliationLoaders {}
}

export function createReconciliationLoaders(core: Core, ctx: RequestContext): ReconciliationLoaders {
  return {
    reconciliationDifferencesByRunId: new DataLoader(async (runIds) =>
      groupBy(runIds, await core.reconciliation.differencesOf(ctx, runIds), (difference) => difference.runId),
    ),
    reconciliationFeesByRunId: new DataLoader(async (runIds) =>
      groupBy(runIds, await core.reconciliation.feesOf(ctx, runIds), (fee) => fee.runId),
    ),
  };
}
