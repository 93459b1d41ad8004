import { notFound } from '../shared/errors';
import { TransitionTable, assertTransition } from '../shared/states';
import { TeamInvitationStatus } from './team-invitation.entity';

/** What happens to an invitation: the invitee accepts or declines it, or an OWNER or ADMIN withdraws it (revoke). */
export type TeamInvitationAction = 'accept' | 'decline' | 'revoke';

const { PENDING, ACCEPTED, DECLINED, REVOKED } = TeamInvitationStatus;

/** Only a PENDING invitation is answered or withdrawn, once; the others are final. */
export const TEAM_INVITATION_TRANSITIONS: TransitionTable<TeamInvitationStatus, TeamInvitationAction> = {
  [PENDING]: { accept: ACCEPTED, decline: DECLINED, revoke: REVOKED },
  [ACCEPTED]: {},
  [DECLINED]: {},
  [REVOKED]: {},
};

/**
 * The status an invitation moves to. One no longer PENDING is NOT_FOUND, as an unknown one: the
 * invitee sees only their pending invitations, and an answered one tells nothing of its answer.
 */
export function teamInvitationTransition(
  from: TeamInvitationStatus,
  action: TeamInvitationAction,
): TeamInvitationStatus {
  return assertTransition(TEAM_INVITATION_TRANSITIONS, from, action, () => notFound('Invitation'));
}
