import { TransitionTable, assertTransition } from '../shared/states';
import { EndUserStatus, KycStatus } from './treasury.entities';

/** What can happen to a KYC check: the provider (or the sandbox tester) approves or rejects it. */
export type KycAction = 'approve' | 'reject';

/** Only a PENDING check is decided; a decided one is final (409 CONFLICT). */
export const KYC_TRANSITIONS: TransitionTable<KycStatus, KycAction> = {
  [KycStatus.PENDING]: { approve: KycStatus.APPROVED, reject: KycStatus.REJECTED },
  [KycStatus.APPROVED]: {},
  [KycStatus.REJECTED]: {},
};

export function kycTransition(from: KycStatus, action: KycAction): KycStatus {
  return assertTransition(
    KYC_TRANSITIONS,
    from,
    action,
    (state, act) =>
      `Only a PENDING KYC check can be ${act === 'approve' ? 'approved' : 'rejected'}; this one is ${state}`,
  );
}

/** The end-user's status follows its latest check: pending_kyc while PENDING, then active or rejected. */
export const END_USER_STATUS_OF_KYC: Record<KycStatus, EndUserStatus> = {
  [KycStatus.PENDING]: EndUserStatus.PENDING_KYC,
  [KycStatus.APPROVED]: EndUserStatus.ACTIVE,
  [KycStatus.REJECTED]: EndUserStatus.REJECTED,
};
