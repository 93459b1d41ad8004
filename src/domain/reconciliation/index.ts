import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { ReconciliationDifference, ReconciliationFee, ReconciliationRun } from './reconciliation.entities';
import { reconciliationJobs } from './reconciliation.jobs';
import { ReconciliationService } from './reconciliation.service';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export type { ReconcileCommand, ReconciliationRunFilters } from './reconciliation.commands';
export {
  ReconciliationDifference,
  ReconciliationDifferenceKind,
  ReconciliationFee,
  ReconciliationRun,
  ReconciliationRunStatus,
} from './reconciliation.entities';
export { previousUtcDay } from './reconciliation.jobs';
export { ReconciliationService } from './reconciliation.service';
export type { ReconciliationReport } from './reconciliation.service';

declare module '../core' {
  interface Core {
    reconciliation: ReconciliationService;
  }
}

/**
 * Reconciliation of the card acquirer's balance with the ledger (docs/live.md, Reconciliation): a
 * daily job and the operator's `tessera reconcile`; it records runs and differences, and changes
 * nothing else.
 */
export const reconciliationArea = defineArea<Core>({
  name: 'reconciliation',
  entities: [ReconciliationRun, ReconciliationDifference, ReconciliationFee],
  services: {
    reconciliation: (core) => new ReconciliationService(core.providers, core.treasuryWallets),
  },
  jobs: (core) => reconciliationJobs(core.reconciliation),
});
