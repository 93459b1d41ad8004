import { CollectionStatus } from '../src/domain/collections/collection.entities';
import { assertPayable, collectionAllows } from '../src/domain/collections/collection.states';
import { TeamInvitationStatus } from '../src/domain/identity/team-invitation.entity';
import { teamInvitationTransition } from '../src/domain/identity/team-invitation.states';
import { PaymentStatus } from '../src/domain/payments/payment.entities';
import { awaitsAuthentication } from '../src/domain/payments/payment.states';
import { ScheduleStatus } from '../src/domain/payouts/schedule.entities';
import { NEVER_ADVANCED, clockAllows, clockStatusOf, clockTransition } from '../src/domain/sandbox/clock.states';
import { ClockAdvanceStatus } from '../src/domain/sandbox/sandbox-clock.entity';
import { scheduleAllows, scheduleTransition } from '../src/domain/payouts/schedule.states';
import { endUserTransition } from '../src/domain/treasury/end-user.states';
import { NOT_STARTED, kycTransition } from '../src/domain/treasury/kyc.states';
import { EndUserStatus, KycStatus } from '../src/domain/treasury/treasury.entities';

const refused = (code: string, message: string) => expect.objectContaining({ code, message });

describe('refusals that were inline status checks, now read from the transition tables (issue 28)', () => {
  test('KYC starts when never started or after a rejection, stands while PENDING, and is refused once APPROVED', () => {
    expect(kycTransition(NOT_STARTED, 'start')).toBe(KycStatus.PENDING);
    expect(kycTransition(KycStatus.REJECTED, 'start')).toBe(KycStatus.PENDING);
    expect(kycTransition(KycStatus.PENDING, 'start')).toBe(KycStatus.PENDING);
    expect(() => kycTransition(KycStatus.APPROVED, 'start')).toThrow(
      refused('CONFLICT', "This end-user's KYC is already APPROVED"),
    );
    expect(() => kycTransition(KycStatus.REJECTED, 'approve')).toThrow(
      refused('CONFLICT', 'Only a PENDING KYC check can be approved; this one is REJECTED'),
    );
  });

  test('a wallet opens only for an active end-user; otherwise KYC_REQUIRED, as before', () => {
    expect(endUserTransition(EndUserStatus.ACTIVE, 'open_wallet')).toBe(EndUserStatus.ACTIVE);
    for (const status of [EndUserStatus.PENDING_KYC, EndUserStatus.REJECTED]) {
      expect(() => endUserTransition(status, 'open_wallet')).toThrow(
        refused('KYC_REQUIRED', "The end-user's KYC must be APPROVED before a wallet can be opened"),
      );
    }
  });

  test('an invitation no longer PENDING is NOT_FOUND to accept, decline or revoke', () => {
    expect(teamInvitationTransition(TeamInvitationStatus.PENDING, 'revoke')).toBe(TeamInvitationStatus.REVOKED);
    for (const action of ['accept', 'decline', 'revoke'] as const) {
      expect(() => teamInvitationTransition(TeamInvitationStatus.REVOKED, action)).toThrow(
        refused('NOT_FOUND', 'Invitation not found'),
      );
    }
  });

  test('only an ACTIVE or PAUSED schedule is edited, and only an ACTIVE one runs', () => {
    expect(scheduleTransition(ScheduleStatus.PAUSED, 'edit')).toBe(ScheduleStatus.PAUSED);
    expect(() => scheduleTransition(ScheduleStatus.COMPLETED, 'edit')).toThrow(
      refused('CONFLICT', 'A COMPLETED schedule cannot be edited'),
    );
    expect(scheduleAllows(ScheduleStatus.ACTIVE, 'run')).toBe(true);
    expect(scheduleAllows(ScheduleStatus.PAUSED, 'run')).toBe(false);
  });

  test('the sandbox pays a pending, processing or completed collection, never a failed or expired one; only a pending one expires or receives', () => {
    for (const status of [CollectionStatus.PENDING, CollectionStatus.PROCESSING, CollectionStatus.COMPLETED])
      expect(() => assertPayable(status)).not.toThrow();
    expect(() => assertPayable(CollectionStatus.EXPIRED)).toThrow(
      refused('CONFLICT', 'Cannot pay a collection that is expired'),
    );
    expect(() => assertPayable(CollectionStatus.FAILED)).toThrow(
      refused('CONFLICT', 'Cannot pay a collection that is failed'),
    );
    expect(collectionAllows(CollectionStatus.PROCESSING, 'expire')).toBe(false);
    expect(collectionAllows(CollectionStatus.PENDING, 'receive')).toBe(true);
  });

  test('the test clock advances one advance at a time, and only a running advance fires and completes', () => {
    expect(clockStatusOf(null)).toBe(NEVER_ADVANCED);
    expect(clockTransition(NEVER_ADVANCED, 'advance')).toBe(ClockAdvanceStatus.RUNNING);
    expect(clockTransition(ClockAdvanceStatus.COMPLETED, 'advance')).toBe(ClockAdvanceStatus.RUNNING);
    expect(clockAllows(ClockAdvanceStatus.RUNNING, 'advance')).toBe(false);
    expect(clockTransition(ClockAdvanceStatus.RUNNING, 'fire')).toBe(ClockAdvanceStatus.RUNNING);
    expect(clockTransition(ClockAdvanceStatus.RUNNING, 'complete')).toBe(ClockAdvanceStatus.COMPLETED);
    expect(clockAllows(ClockAdvanceStatus.COMPLETED, 'fire')).toBe(false);
    expect(() => clockTransition(ClockAdvanceStatus.COMPLETED, 'complete')).toThrow(
      refused('CONFLICT', 'Cannot complete a test clock that is completed'),
    );
  });

  test('a payment waits for 3-D Secure only while REQUIRES_ACTION', () => {
    expect(awaitsAuthentication({ status: PaymentStatus.REQUIRES_ACTION })).toBe(true);
    expect(awaitsAuthentication({ status: PaymentStatus.PENDING })).toBe(false);
    expect(awaitsAuthentication(null)).toBe(false);
  });
});
