import type { TreasuryRailOutcome } from '../../providers/treasury-rail/port';
import { Mode } from '../shared/modes';
import { AreaJobs, JobRequest, cronLine } from '../shared/jobs';
import type { TreasuryPayout } from './treasury.entities';
import type { TreasuryPayoutService } from './treasury-payout.service';

/** The treasury area's background tasks (src/jobs/worker.ts runs them). */
export const DISPATCH_TREASURY_PAYOUT_TASK = 'dispatch_treasury_payout';
export const TREASURY_RAIL_CALLBACK_TASK = 'treasury_rail_callback';
/** The sweep (cron, every 5 minutes) that sends again treasury payouts whose dispatch stalled. */
export const REDISPATCH_STALLED_TREASURY_PAYOUTS_TASK = 'redispatch_stalled_treasury_payouts';

interface TreasuryPayoutJob {
  payoutId: string;
  businessId: string;
  livemode: boolean;
}

/** The dispatch of a created treasury payout, at most one pending per payout. */
export const dispatchTreasuryPayoutJob = (
  payout: Pick<TreasuryPayout, 'id' | 'businessId' | 'livemode'>,
): JobRequest => ({
  task: DISPATCH_TREASURY_PAYOUT_TASK,
  payload: { payoutId: payout.id, businessId: payout.businessId, livemode: payout.livemode },
  options: { jobKey: `${DISPATCH_TREASURY_PAYOUT_TASK}:${payout.id}`, maxAttempts: 10 },
});

/** The rail's report on a payout, after `afterMs`, at most one pending per payout. */
export const treasuryRailCallbackJob = (
  payout: TreasuryPayout,
  outcome: TreasuryRailOutcome,
  afterMs: number,
): JobRequest => ({
  task: TREASURY_RAIL_CALLBACK_TASK,
  payload: { payoutId: payout.id, businessId: payout.businessId, livemode: payout.livemode, outcome },
  options: {
    runAt: new Date(Date.now() + afterMs),
    jobKey: `${TREASURY_RAIL_CALLBACK_TASK}:${payout.id}`,
    maxAttempts: 10,
  },
});

export function treasuryJobs(
  payouts: Pick<TreasuryPayoutService, 'dispatch' | 'applyRailOutcome' | 'redispatchStalled'>,
): AreaJobs {
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
      /** Sends again the treasury payouts claimed for the rail long ago, still without its reference, whose dispatch job gave up. */
      [REDISPATCH_STALLED_TREASURY_PAYOUTS_TASK]: async (_payload, log, system) => {
        const ids = await payouts.redispatchStalled(system());
        if (ids.length > 0)
          log.warn(`dispatching again ${ids.length} treasury payout(s) whose dispatch stalled: ${ids.join(', ')}`);
      },
      /** The rail's report: COMPLETED or FAILED (with the reversal), applied once. */
      [TREASURY_RAIL_CALLBACK_TASK]: async (payload, log, system) => {
        const job = payload as TreasuryPayoutJob & { outcome: TreasuryRailOutcome };
        await payouts.applyRailOutcome(contextOf(system, job), job.payoutId, job.outcome).catch((error: unknown) => {
          if ((error as { code?: string }).code === 'CONFLICT')
            log.warn(
              `treasury payout ${job.payoutId}: rail report ${job.outcome.status} ignored (${(error as Error).message})`,
            );
          else throw error;
        });
      },
    },
    crontab: [cronLine('*/5 * * * *', REDISPATCH_STALLED_TREASURY_PAYOUTS_TASK)],
  };
}
