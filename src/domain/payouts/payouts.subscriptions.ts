import { AnySubscription } from '../shared/domain-events';
import { ScheduleRunner } from './schedule-runner';
import { V1TransferService } from './v1-transfer.service';

/**
 * What payouts hear: a test clock's advance fires the scheduled-payout runs that fell due (bounded
 * per advance); a payout's move is recorded as its `/v1` transfer's event.
 */
export const payoutsSubscriptions = ({
  payoutScheduleRunner,
  v1Transfers,
}: {
  payoutScheduleRunner: ScheduleRunner;
  v1Transfers: V1TransferService;
}): AnySubscription[] => [
  {
    event: 'sandbox.clock-advancing',
    phase: 'in-transaction',
    name: 'payouts.count-due-schedule-runs',
    handle: (tx, advancing) => payoutScheduleRunner.countDue(tx, advancing),
  },
  {
    event: 'sandbox.clock-slice',
    phase: 'in-transaction',
    name: 'payouts.fire-due-schedule-runs',
    handle: (ctx, slice) => payoutScheduleRunner.fireDue(ctx, slice),
  },
  {
    event: 'payout.moved',
    phase: 'in-transaction',
    name: 'payouts.v1-transfer-events',
    handle: (tx, { payout }) => v1Transfers.announce(tx, payout),
  },
];
