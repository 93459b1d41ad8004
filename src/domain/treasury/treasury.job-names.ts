import type { TreasuryRailOutcome } from '../../providers/treasury-rail/port';
import { JobRequest } from '../shared/jobs';
import type { TreasuryPayout } from './treasury.entities';

/** The treasury area's background tasks (src/jobs/worker.ts runs them). */
export const DISPATCH_TREASURY_PAYOUT_TASK = 'dispatch_treasury_payout';
export const TREASURY_RAIL_CALLBACK_TASK = 'treasury_rail_callback';
/** The sweep (cron, every 5 minutes) that sends again treasury payouts whose dispatch stalled. */
export const REDISPATCH_STALLED_TREASURY_PAYOUTS_TASK = 'redispatch_stalled_treasury_payouts';
/** The status poll (cron, every 5 minutes) of live treasury payouts whose rail report is late. */
export const POLL_LATE_TREASURY_PAYOUTS_TASK = 'poll_late_treasury_payouts';

export interface TreasuryPayoutJob {
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
