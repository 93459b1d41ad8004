import { AnySubscription } from '../shared/domain-events';
import { ScheduleRunner } from './schedule-runner';

/** What payouts hear: a test clock's advance fires the scheduled-payout runs that fell due (bounded per advance). */
export const payoutsSubscriptions = ({
  payoutScheduleRunner,
}: {
  payoutScheduleRunner: ScheduleRunner;
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
];
