import type { CollectionRailReport } from '../../providers/collection-rail/port';
import { Mode } from '../shared/modes';
import { AreaJobs, cronLine } from '../shared/jobs';
import type { CollectionService } from './collection.service';
import {
  EXPIRE_COLLECTION_TASK,
  COLLECTION_RAIL_REPORT_TASK,
  REFRESH_PROVIDER_CHANNELS_TASK,
  type CollectionJob,
} from './collections.job-names';

export function collectionJobs(
  collections: Pick<CollectionService, 'expireDue' | 'applyRailReport' | 'refreshProviderChannels'>,
): AreaJobs {
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
      /** Reads the live collection rail's channels and networks again from its provider (Yellow Card's): payout routing uses them too. */
      [REFRESH_PROVIDER_CHANNELS_TASK]: async (_payload, log, system) => {
        if (await collections.refreshProviderChannels(system())) log.info('provider channels and networks read again');
      },
    },
    crontab: [cronLine('*/15 * * * *', REFRESH_PROVIDER_CHANNELS_TASK)],
  };
}
