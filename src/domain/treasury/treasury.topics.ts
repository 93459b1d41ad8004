import type { StatusChange } from '../events/pubsub';
import type { KycStatus, TreasuryPayoutStatus } from './treasury.entities';

/** The treasury area's topics, as named on the wire. */
export const TreasuryTopic = { TREASURY_PAYOUT: 'TREASURY_PAYOUT', TREASURY_KYC: 'TREASURY_KYC' } as const;

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
    [TreasuryTopic.TREASURY_PAYOUT]: [TreasuryPayoutChange];
    [TreasuryTopic.TREASURY_KYC]: [TreasuryKycChange];
  }
}
