import { DomainError } from '../shared/errors';
import { TreasuryErrorCode } from './treasury.errors';
import { TransitionTable, assertTransition } from '../shared/states';
import { EndUserStatus } from './treasury.entities';

/**
 * What an end-user does on its own account: `open_wallet`. Its status itself follows its KYC
 * (`END_USER_STATUS_OF_KYC`); this table says what each status allows.
 */
export type EndUserAction = 'open_wallet';

/** A wallet is opened only for an end-user whose KYC is APPROVED (active); opening one changes nothing on the end-user. */
export const END_USER_TRANSITIONS: TransitionTable<EndUserStatus, EndUserAction> = {
  [EndUserStatus.PENDING_KYC]: {},
  [EndUserStatus.ACTIVE]: { open_wallet: EndUserStatus.ACTIVE },
  [EndUserStatus.REJECTED]: {},
};

const kycRequired = () =>
  new DomainError(TreasuryErrorCode.KYC_REQUIRED, "The end-user's KYC must be APPROVED before a wallet can be opened");

/** The end-user's status after `action`, or KYC_REQUIRED when its status does not allow it. */
export function endUserTransition(from: EndUserStatus, action: EndUserAction): EndUserStatus {
  return assertTransition(END_USER_TRANSITIONS, from, action, kycRequired);
}
