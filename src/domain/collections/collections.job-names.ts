import type { CollectionRailReport } from '../../providers/collection-rail/port';
import { JobRequest } from '../shared/jobs';
import type { Collection } from './collection.entities';

/** The collections area's background tasks (src/jobs/worker.ts runs them). */
export const EXPIRE_COLLECTION_TASK = 'expire_collection';
export const COLLECTION_RAIL_REPORT_TASK = 'collection_rail_report';
/** Reads a provider rail's channels and networks again (cron, every 15 minutes; the rail also reads them at start). */
export const REFRESH_PROVIDER_CHANNELS_TASK = 'refresh_provider_channels';

export interface CollectionJob {
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
