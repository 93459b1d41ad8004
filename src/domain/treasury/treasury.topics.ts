import type { StatusChange, Topic } from '../events/pubsub';
import type { KycStatus, TreasuryPayoutStatus } from './treasury.entities';

/** A treasury payout was created or its status changed; subscribers read its current state. */
export interface TreasuryPayoutChange extends StatusChange<TreasuryPayoutStatus> {
  businessId: string;
  livemode: boolean;
  payoutId: string;
}

/** A treasury end-user's KYC check changed (started, approved, rejected); subscribers read its current state. */
export interface TreasuryKycChange extends StatusChange<KycStatus> {
  businessId: string;
  livemode: boolean;
  endUserId: string;
  checkId: string;
}

declare module '../events/pubsub' {
  interface TopicPayloads {
    [Topic.TREASURY_PAYOUT]: [TreasuryPayoutChange];
    [Topic.TREASURY_KYC]: [TreasuryKycChange];
  }
}
