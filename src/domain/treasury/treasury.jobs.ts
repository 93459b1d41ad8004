import type { TreasuryRailOutcome } from '../../providers/treasury-rail/port';
import { Mode } from '../identity/identity.entities';
import { AreaJobs, JobRequest } from '../shared/jobs';
import type { TreasuryPayout } from './treasury.entities';
import type { TreasuryPayoutService } from './treasury-payout.service';

/** The treasury area's background tasks (src/jobs/worker.ts runs them). */
export const DISPATCH_TREASURY_PAYOUT_TASK = 'dispatch_treasury_payout';
export const TREASURY_RAIL_CALLBACK_TASK = 'treasury_rail_callback';

interface TreasuryPayoutJob {
  payoutId: string;
  businessId: string;
  livemode: boolean;
}

/** The dispatch of a created treasury payout, at most one pending per payout. */
export const dispatchTreasuryPayoutJob = (payout: TreasuryPayout): JobRequest => ({
  task: DISPATCH_TREASURY_PAYOUT_TASK,
  payload: { payoutId: payout.id, businessId: payout.businessId, livemode: payout.livemode },
  options: { jobKey: `${DISPATCH_TREASURY_PAYOUT_TASK}:${payout.id}`, maxAttempts: 10 },
});

/** The rail's report on a payout, after `afterMs`, at most one pending per payout. */
export const treasuryRailCallbackJob = (payout: TreasuryPayout, outcome: TreasuryRailOutcome, afterMs: number): JobRequest => ({
  task: TREASURY_RAIL_CALLBACK_TASK,
  payload: { payoutId: payout.id, businessId: payout.businessId, livemode: payout.livemode, outcome },
  options: { runAt: new Date(Date.now() + afterMs), jobKey: `${TREASURY_RAIL_CALLBACK_TASK}:${payout.id}`, maxAttempts: 10 },
});

export function treasuryJobs(payouts: Pick<TreasuryPayoutService, 'dispatch' | 'applyRailOutcome'>): AreaJobs {
  const contextOf = (system: () => import('../shared/context').RequestContext, job: TreasuryPayoutJob) =>
    system().forBusiness(job.businessId, job.livemode ? Mode.LIVE : Mode.TEST);
  return {
    actor: 'treasury',
    tasks: {
      /** Hands a PENDING treasury payout to the rail (PROCESSING; outside any transaction; the rail dedupes on the payout id). */
      [DISPATCH_TREASURY_PAYOUT_TASK]: async (payload, _log, system) => {
        const job = payload as TreasuryPayoutJob;
        await payouts.dispatch(contextOf(system, job), job.payoutId);
      },
      /** The rail's report: COMPLETED or FAILED (with the reversal), applied once. */
      [TREASURY_RAIL_CALLBACK_TASK]: async (payload, log, system) => {
        const job = payload as TreasuryPayoutJob & { outcome: TreasuryRailOutcome };
        await payouts.applyRailOutcome(contextOf(system, job), job.payoutId, job.outcome).catch((error: unknown) => {
          if ((error as { code?: string }).code === 'CONFLICT') log.warn(`treasury payout ${job.payoutId}: rail report ${job.outcome.status} ignored (${(error as Error).message})`);
          else throw error;
        });
      },
    },
  };
}
