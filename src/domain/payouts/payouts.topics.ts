import type { PayoutStatus } from './payout.entities';
import type { ScheduleStatus } from './schedule.entities';

/** The payouts area's topics, as named on the wire. */
export const PayoutTopic = { PAYOUT: 'PAYOUT', PAYOUT_SCHEDULE: 'PAYOUT_SCHEDULE' } as const;

/** A payout was created or changed; subscribers read its current state. */
export interface PayoutChange {
  businessId: string;
  livemode: boolean;
  payoutId: string;
  /** Its status before the change (its status still, when the change set other fields); null when the change created it. */
  previousStatus: PayoutStatus | null;
  /** The payout's properties the change set (updatedAt aside); null when the change created it. */
  changedFields: string[] | null;
}

/** A payout schedule changed (edited, paused, resumed, cancelled, run, completed); subscribers read its current state. */
export interface PayoutScheduleChange {
  businessId: string;
  livemode: boolean;
  scheduleId: string;
  /** Its status before the change (its status still, when the change set other fields); null when the change created it. */
  previousStatus: ScheduleStatus | null;
  /** The schedule's properties the change set (updatedAt aside); null when the change created it. */
  changedFields: string[] | null;
}

declare module '../events/pubsub' {
  interface TopicPayloads {
    [PayoutTopic.PAYOUT]: [PayoutChange];
    [PayoutTopic.PAYOUT_SCHEDULE]: [PayoutScheduleChange];
  }
}
