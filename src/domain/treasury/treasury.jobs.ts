import type { TreasuryRailOutcome } from '../../providers/treasury-rail/port';
import { Mode } from '../shared/modes';
import { AreaJobs, cronLine } from '../shared/jobs';
import type { TreasuryPayoutService } from './treasury-payout.service';
import {
  DISPATCH_TREASURY_PAYOUT_TASK,
  TREASURY_RAIL_CALLBACK_TASK,
  REDISPATCH_STALLED_TREASURY_PAYOUTS_TASK,
  POLL_LATE_TREASURY_PAYOUTS_TASK,
  type TreasuryPayoutJob,
} from './treasury.job-names';

export function treasuryJobs(
  payouts: Pick<TreasuryPayoutService, 'dispatch' | 'applyRailOutcome' | 'redispatchStalled' | 'pollLateProcessing'>,
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
      /** Asks the rail about live treasury payouts still PROCESSING long after it took them (their webhook late or lost). */
      [POLL_LATE_TREASURY_PAYOUTS_TASK]: async (_payload, log, system) => {
        const moved = await payouts.pollLateProcessing(system());
        if (moved.length > 0)
          log.warn(`moved ${moved.length} late treasury payout(s) by the rail's status: ${moved.join(', ')}`);
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
    crontab: [
      cronLine('*/5 * * * *', REDISPATCH_STALLED_TREASURY_PAYOUTS_TASK),
      cronLine('*/5 * * * *', POLL_LATE_TREASURY_PAYOUTS_TASK),
    ],
  };
}
