import type { CollectionRailReport } from '../../providers/collection-rail/port';
import { Mode } from '../shared/modes';
import { AreaJobs, JobRequest } from '../shared/jobs';
import type { Collection } from './collection.entities';
import type { CollectionService } from './collection.service';

/** The collections area's background tasks (src/jobs/worker.ts runs them). */
export const EXPIRE_COLLECTION_TASK = 'expire_collection';
export const COLLECTION_RAIL_REPORT_TASK = 'collection_rail_report';

interface CollectionJob {
  collectionId: string;
  businessId: string;
  livemode: boolean;
}

/**
 * The collection's expiry at its expiresAt on the business's clock: wall-clock time expiresAt less
 * the test-clock offset (`offsetSeconds`, 0 in live mode). At most one pending per collection.
 * Only a wake-up: the job re-reads the clock and expires the collection only if it is due then.
 */
export const expiryJob = (
  collection: Pick<Collection, 'id' | 'businessId' | 'livemode' | 'expiresAt'>,
  offsetSeconds: number,
): JobRequest => ({
  task: EXPIRE_COLLECTION_TASK,
  payload: { collectionId: collection.id, businessId: collection.businessId, livemode: collection.livemode },
  options: {
    runAt: new Date(collection.expiresAt.getTime() - offsetSeconds * 1000),
    jobKey: `${EXPIRE_COLLECTION_TASK}:${collection.id}`,
    maxAttempts: 10,
  },
});

/** A rail's report to apply later (a real rail's callback is queued here, so a burst is applied by the workers, each once). */
export const railReportJob = (
  collection: Pick<Collection, 'id' | 'businessId' | 'livemode'>,
  report: CollectionRailReport,
): JobRequest => ({
  task: COLLECTION_RAIL_REPORT_TASK,
  payload: {
    collectionId: collection.id,
    businessId: collection.businessId,
    livemode: collection.livemode,
    report: report.kind === 'failed' ? report : { kind: report.kind, amount: report.amount.toString() },
  },
  options: { maxAttempts: 10 },
});

export function collectionJobs(collections: Pick<CollectionService, 'expireDue' | 'applyRailReport'>): AreaJobs {
  const contextOf = (job: CollectionJob, system: () => import('../shared/context').RequestContext) =>
    system().forBusiness(job.businessId, job.livemode ? Mode.LIVE : Mode.TEST);
  return {
    actor: 'collections',
    tasks: {
      /** Expires a collection still pending at its expiresAt (the business's clock decides). */
      [EXPIRE_COLLECTION_TASK]: async (payload, _log, system) => {
        const job = payload as CollectionJob;
        await collections.expireDue(contextOf(job, system), job.collectionId);
      },
      /** Applies a rail's report once (a repeated report changes nothing; one about a collection moved elsewhere is logged and dropped). */
      [COLLECTION_RAIL_REPORT_TASK]: async (payload, log, system) => {
        const job = payload as CollectionJob & { report: { kind: string; amount?: string; reason?: string } };
        const report: CollectionRailReport =
          job.report.kind === 'failed'
            ? { kind: 'failed', reason: job.report.reason ?? 'rejected' }
            : { kind: job.report.kind as 'received' | 'settled', amount: BigInt(job.report.amount ?? '0') };
        await collections.applyRailReport(contextOf(job, system), job.collectionId, report).catch((error: unknown) => {
          if ((error as { code?: string }).code === 'CONFLICT')
            log.warn(
              `collection ${job.collectionId}: rail report ${report.kind} ignored (${(error as Error).message})`,
            );
          else throw error;
        });
      },
    },
  };
}
