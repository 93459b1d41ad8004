import { In } from 'typeorm';
import { Business, Membership, Role, User } from './identity.entities';
import { ChangeMemberRole } from './identity.commands';
import { announceRevocation, memberRevoked } from './identity.events';
import { assertMayGrant, lockTeam } from './team-lock';
import { ADMIN_ROLES, ALL_ROLES, RequestContext, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, forbidden, notFound } from '../shared/errors';
import { TesseraPubSub } from '../events/pubsub';

/**
 * The members of a business and their roles; a business always keeps at least one OWNER, and
 * nobody changes their own role (another OWNER or ADMIN does).
 */
export class TeamService {
  constructor(private readonly pubSub: TesseraPubSub) {}

  async members(ctx: RequestContext): Promise<Membership[]> {
    ctx.requireRole(...ALL_ROLES);
    return ctx.repo(Membership).find({ where: { businessId: ctx.requireBusiness() }, order: { createdAt: 'ASC' } });
  }

  async changeMemberRole(ctx: RequestContext, command: ChangeMemberRole): Promise<Membership> {
    ctx.requireDashboardRole(...ADMIN_ROLES);
    const { membershipId, role } = command;
    assertMayGrant(ctx, role);
    return inTransaction(ctx, async (transaction) => {
      const { tx, caller, target: membership } = await this.lockedMember(transaction, membershipId);
      if (membership.id === caller?.id) throw forbidden('You cannot change your own role; another OWNER or ADMIN of the business can');
      assertMayGrant(tx, role);
      assertMayGrant(tx, membership.role);
      if (membership.role === Role.OWNER && role !== Role.OWNER) await this.assertAnotherOwner(tx, membership);
      if (membership.role !== role) announceRevocation(tx, this.pubSub, memberRevoked(membership.businessId, membership.userId));
      membership.role = role;
      return tx.repo(Membership).save(membership);
    });
  }

  async removeMember(ctx: RequestContext, membershipId: string): Promise<Membership> {
    ctx.requireDashboardRole(...ADMIN_ROLES);
    return inTransaction(ctx, async (transaction) => {
      const { tx, target: membership } = await this.lockedMember(transaction, membershipId);
      assertMayGrant(tx, membership.role);
      if (membership.role === Role.OWNER) await this.assertAnotherOwner(tx, membership);
      await tx.repo(Membership).delete({ id: membership.id });
      announceRevocation(tx, this.pubSub, memberRevoked(membership.businessId, membership.userId));
      return membership;
    });
  }

  // Batch reads for the dashboard's DataLoaders. Callers only pass ids they reached through the
  // caller's own memberships, so these do not re-check tenancy.
  async usersByIds(ctx: RequestContext, ids: string[]): Promise<User[]> {
    return ctx.repo(User).find({ where: { id: In(ids) } });
  }

  async businessesByIds(ctx: RequestContext, ids: string[]): Promise<Business[]> {
    return ctx.repo(Business).find({ where: { id: In(ids) } });
  }

  /** Every membership of the users; the GraphQL face narrows other users' lists to the business it reached them through. */
  async membershipsOfUsers(ctx: RequestContext, userIds: string[]): Promise<Membership[]> {
    return ctx.repo(Membership).find({ where: { userId: In(userIds) }, order: { createdAt: 'ASC' } });
  }

  /** The team locked, the caller authorised again as of now, and the member the operation changes (404 when not of this business). */
  private async lockedMember(tx: RequestContext, membershipId: string) {
    const team = await lockTeam(tx, ADMIN_ROLES, membershipId);
    if (!team.target) throw notFound('Member');
    return { ...team, target: team.target };
  }

  private async assertAnotherOwner(tx: RequestContext, membership: Membership) {
    const owners = await tx.repo(Membership).count({ where: { businessId: membership.businessId, role: Role.OWNER } });
    if (owners <= 1) throw new DomainError(ErrorCode.CONFLICT, 'A business must keep at least one OWNER');
  }
}
