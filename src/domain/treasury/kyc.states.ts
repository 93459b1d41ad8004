import { TransitionTable, assertTransition } from '../shared/states';
import { EndUserStatus, KycStatus } from './treasury.entities';

/**
 * What can happen to an end-user's KYC record (its latest check): `start` opens a check (a new one,
 * or the PENDING one again); the provider (or the sandbox tester) approves or rejects it.
 */
export type KycAction = 'start' | 'approve' | 'reject';

/** An end-user whose KYC was never started. */
export const NOT_STARTED = 'NOT_STARTED';
type KycState = KycStatus | typeof NOT_STARTED;

/**
 * Only a PENDING check is decided; a decided one is final (409 CONFLICT). A REJECTED end-user
 * starts again with a new check; starting while one is PENDING leads where it already is (that
 * check stands); an APPROVED end-user's KYC is done.
 */
export const KYC_TRANSITIONS: TransitionTable<KycState, KycAction> = {
  [NOT_STARTED]: { start: KycStatus.PENDING },
  [KycStatus.PENDING]: { start: KycStatus.PENDING, approve: KycStatus.APPROVED, reject: KycStatus.REJECTED },
  [KycStatus.APPROVED]: {},
  [KycStatus.REJECTED]: { start: KycStatus.PENDING },
};

const REFUSALS: Readonly<Record<KycAction, (from: KycState) => string>> = {
  start: (from) => `This end-user's KYC is already ${from}`,
  approve: (from) => `Only a PENDING KYC check can be approved; this one is ${from}`,
  reject: (from) => `Only a PENDING KYC check can be rejected; this one is ${from}`,
};

/** The status the end-user's KYC record moves to, or CONFLICT when the table does not allow the action from `from`. */
export function kycTransition(from: KycState, action: KycAction): KycStatus {
  return assertTransition(KYC_TRANSITIONS, from, action, (state) => REFUSALS[action](state)) as KycStatus;
}

/** The end-user's status follows its latest check: pending_kyc while PENDING, then active or rejected. */
export const END_USER_STATUS_OF_KYC: Record<KycStatus, EndUserStatus> = {
  [KycStatus.PENDING]: EndUserStatus.PENDING_KYC,
  [KycStatus.APPROVED]: EndUserStatus.ACTIVE,
  [KycStatus.REJECTED]: EndUserStatus.REJECTED,
};
