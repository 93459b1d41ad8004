import type { RailOutcome } from '../../providers/payout-rail/port';
import { Mode } from '../identity/identity.entities';
import { AreaJobs, JobRequest } from '../shared/jobs';
import type { Payout } from './payout.entities';
import type { PayoutService } from './payout.service';

/** The payouts area's background tasks (src/jobs/worker.ts runs them). */
export const DISPATCH_PAYOUT_TASK = 'dispatch_payout';
export const RAIL_CALLBACK_TASK = 'payout_rail_callback';

interface PayoutJob {
  payoutId: string;
  businessId: string;
  livemode: boolean;
}

/** The dispatch of a created payout, at most one pending per payout. */
export const dispatchJob = (payout: Payout): JobRequest => ({
  task: DISPATCH_PAYOUT_TASK,
  payload: { payoutId: payout.id, businessId: payout.businessId, livemode: payout.livemode },
  options: { jobKey: `${DISPATCH_PAYOUT_TASK}:${payout.id}`, maxAttempts: 10 },
});

export function payoutJobs(payouts: Pick<PayoutService, 'dispatch' | 'applyRailOutcome'>): AreaJobs {
  return {
    actor: 'payouts',
    tasks: {
      /** Hands a created payout to the rail (outside any transaction; the rail dedupes on the payout id). */
      [DISPATCH_PAYOUT_TASK]: async (payload, _log, system) => {
        const job = payload as PayoutJob;
        await payouts.dispatch(system().forBusiness(job.businessId, job.livemode ? Mode.LIVE : Mode.TEST), job.payoutId);
      },
      /** The rail's report on a submitted payout (the sandbox rail's callback): settled or failed, applied once. */
      [RAIL_CALLBACK_TASK]: async (payload, log, system) => {
        const job = payload as PayoutJob & { outcome: RailOutcome };
        const ctx = system().forBusiness(job.businessId, job.livemode ? Mode.LIVE : Mode.TEST);
        await payouts.applyRailOutcome(ctx, job.payoutId, job.outcome).catch((error: unknown) => {
          // A report about a payout already moved elsewhere (cancelled, advanced by hand) changes nothing.
          if ((error as { code?: string }).code === 'CONFLICT') log.warn(`payout ${job.payoutId}: rail report ${job.outcome.status} ignored (${(error as Error).message})`);
          else throw error;
        });
      },
    },
  };
}
