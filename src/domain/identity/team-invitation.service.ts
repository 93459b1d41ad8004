import { MoreThan } from 'typeorm';
import { Business, Membership, User } from './identity.entities';
import { TeamInvitation, TeamInvitationStatus } from './team-invitation.entity';
import { TeamInvitationAction, teamInvitationTransition } from './team-invitation.states';
import { ADMIN_ROLES, ALL_ROLES, RequestContext, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, notFound, unauthorized } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { TeamInvite } from './identity.commands';
import { assertMayGrant, lockTeam } from './team-lock';

/** An invitation can be accepted for 7 days; inviting the same email again renews it. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

const alreadyMember = () => new DomainError(ErrorCode.CONFLICT, 'This user is already a member');

/**
 * Joining a team takes the invitee's consent: an OWNER or ADMIN invites an email with a role, and
 * the signed-in user with that email accepts or declines. An invitation is the same whether or not
 * an account uses the email (so inviting reveals nothing about who has an account), and nobody's
 * memberships change until they accept.
 */
export class TeamInvitationService {
  /** Invites an email (OWNER, ADMIN; an OWNER role only by an OWNER); renews a pending invitation of the same email. */
  async invite(ctx: RequestContext, data: TeamInvite): Promise<TeamInvitation> {
    ctx.requireDashboardRole(...ADMIN_ROLES);
    assertMayGrant(ctx, data.role);
    return inTransaction(ctx, async (transaction) => {
      const { tx } = await lockTeam(transaction, ADMIN_ROLES);
      assertMayGrant(tx, data.role);
      const businessId = tx.requireBusiness();
      // A member is visible in teamMembers anyway; whether a non-member has an account is never told.
      const [member] = await tx.em.query<unknown[]>(
        `SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.business_id = $1 AND u.email = $2`,
        [businessId, data.email],
      );
      if (member) throw alreadyMember();
      const invitation =
        (await tx
          .repo(TeamInvitation)
          .findOne({ where: { businessId, email: data.email, status: TeamInvitationStatus.PENDING } })) ??
        tx.repo(TeamInvitation).create({ businessId, email: data.email, status: TeamInvitationStatus.PENDING });
      invitation.role = data.role;
      invitation.invitedByUserId = tx.actor.kind === 'dashboard' ? tx.actor.userId : null;
      invitation.expiresAt = new Date(Date.now() + INVITATION_LIFETIME_MS);
      return tx.repo(TeamInvitation).save(invitation);
    });
  }

  /** The business's pending invitations, newest first (any role). */
  async pendingForBusiness(ctx: RequestContext): Promise<TeamInvitation[]> {
    ctx.requireRole(...ALL_ROLES);
    return ctx.repo(TeamInvitation).find({
      where: { businessId: ctx.requireBusiness(), status: TeamInvitationStatus.PENDING },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /** The signed-in user's pending, unexpired invitations, of every business, newest first. */
  async pendingForMe(ctx: RequestContext): Promise<TeamInvitation[]> {
    const user = await this.invitee(ctx);
    return ctx.repo(TeamInvitation).find({
      where: { email: user.email, status: TeamInvitationStatus.PENDING, expiresAt: MoreThan(new Date()) },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /** Accepts one of the signed-in user's invitations: they become a member with its role. */
  async accept(ctx: RequestContext, invitationId: string): Promise<Membership> {
    const user = await this.invitee(ctx);
    return inTransaction(ctx, async (tx) => {
      const invitation = await this.answerable(tx, user, invitationId, 'accept');
      await tx.repo(Business).findOne({ where: { id: invitation.businessId }, lock: { mode: 'for_no_key_update' } });
      const existing = await tx
        .repo(Membership)
        .findOne({ where: { userId: user.id, businessId: invitation.businessId } });
      if (existing) throw alreadyMember();
      await this.respond(tx, invitation, 'accept');
      return tx
        .repo(Membership)
        .save(
          tx.repo(Membership).create({ userId: user.id, businessId: invitation.businessId, role: invitation.role }),
        );
    });
  }

  /** Declines one of the signed-in user's invitations. */
  async decline(ctx: RequestContext, invitationId: string): Promise<TeamInvitation> {
    const user = await this.invitee(ctx);
    return inTransaction(ctx, async (tx) =>
      this.respond(tx, await this.answerable(tx, user, invitationId, 'decline'), 'decline'),
    );
  }

  /** Withdraws a pending invitation of the business (OWNER, ADMIN; an OWNER invitation only by an OWNER). */
  async revoke(ctx: RequestContext, invitationId: string): Promise<TeamInvitation> {
    ctx.requireDashboardRole(...ADMIN_ROLES);
    return inTransaction(ctx, async (transaction) => {
      const { tx } = await lockTeam(transaction, ADMIN_ROLES);
      const invitation = isUuid(invitationId)
        ? await tx.repo(TeamInvitation).findOne({
            where: { id: invitationId, businessId: tx.requireBusiness() },
            lock: { mode: 'pessimistic_write' },
          })
        : null;
      if (!invitation) throw notFound('Invitation');
      teamInvitationTransition(invitation.status, 'revoke');
      assertMayGrant(tx, invitation.role);
      return this.respond(tx, invitation, 'revoke');
    });
  }

  private async invitee(ctx: RequestContext): Promise<User> {
    if (ctx.actor.kind !== 'dashboard')
      throw unauthorized('Sign in to the dashboard to see and answer your invitations');
    return ctx.repo(User).findOneOrFail({ where: { id: ctx.actor.userId } });
  }

  /** An unexpired invitation to the user's email that the table lets them answer; anything else (another's, answered, expired) is NOT_FOUND. */
  private async answerable(
    tx: RequestContext,
    user: User,
    invitationId: string,
    action: TeamInvitationAction,
  ): Promise<TeamInvitation> {
    const invitation = isUuid(invitationId)
      ? await tx
          .repo(TeamInvitation)
          .findOne({ where: { id: invitationId, email: user.email }, lock: { mode: 'pessimistic_write' } })
      : null;
    if (!invitation || invitation.expiresAt.getTime() <= Date.now()) throw notFound('Invitation');
    teamInvitationTransition(invitation.status, action);
    return invitation;
  }

  private async respond(
    tx: RequestContext,
    invitation: TeamInvitation,
    action: TeamInvitationAction,
  ): Promise<TeamInvitation> {
    invitation.status = teamInvitationTransition(invitation.status, action);
    invitation.respondedAt = new Date();
    return tx.repo(TeamInvitation).save(invitation);
  }
}
