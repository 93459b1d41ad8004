import { Brackets } from 'typeorm';
import { Business, Membership, User } from './identity.entities';
import { Role } from '../shared/modes';
import { ChangeMemberRole } from './identity.commands';
import { announceRevocation, memberRevoked } from './identity.events';
import { assertMayGrant, lockTeam } from './team-lock';
import { ADMIN_ROLES, ALL_ROLES, RequestContext, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, forbidden, notFound } from '../shared/errors';
import { TesseraPubSub } from '../events/pubsub';
import { isUuid } from '../shared/ids';

/** Whom the caller is (a dashboard user's id) and which business they act for; null matches no row. */
function callerScope(ctx: RequestContext): { me: string | null; active: string | null } {
  return { me: ctx.actor.kind === 'dashboard' ? ctx.actor.userId : null, active: ctx.businessId };
}

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
      if (membership.id === caller?.id)
        throw forbidden('You cannot change your own role; another OWNER or ADMIN of the business can');
      assertMayGrant(tx, role);
      assertMayGrant(tx, membership.role);
      if (membership.role === Role.OWNER && role !== Role.OWNER) await this.assertAnotherOwner(tx, membership);
      if (membership.role !== role)
        announceRevocation(tx, this.pubSub, memberRevoked(membership.businessId, membership.userId));
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
      // The caller reaches the removed member's user by id no more; the answer carries it.
      membership.user = await tx.repo(User).findOneByOrFail({ id: membership.userId });
      await tx.repo(Membership).delete({ id: membership.id });
      announceRevocation(tx, this.pubSub, memberRevoked(membership.businessId, membership.userId));
      return membership;
    });
  }

  // Batch reads by id for the faces (the dashboard's DataLoaders and node(id:)). Each answers only
  // what the caller may see, scoped in SQL: their own memberships (a dashboard user's, in every
  // business they belong to) and those of the active business, the users and businesses those
  // reach, and a business that invited the signed-in user. Any other id is left out.

  /** Memberships of the ids the caller may see. */
  async membershipsByIds(ctx: RequestContext, ids: string[]): Promise<Membership[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return this.visibleMemberships(ctx).andWhere('membership.id IN (:...valid)', { valid }).getMany();
  }

  /** The memberships of the users the caller may see: all of the caller's own, only the active business's of anyone else. */
  async membershipsOfUsers(ctx: RequestContext, userIds: string[]): Promise<Membership[]> {
    const valid = userIds.filter(isUuid);
    if (valid.length === 0) return [];
    return this.visibleMemberships(ctx).andWhere('membership.userId IN (:...valid)', { valid }).getMany();
  }

  /** The caller and the members of the active business. */
  async usersByIds(ctx: RequestContext, ids: string[]): Promise<User[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const { me, active } = callerScope(ctx);
    return ctx
      .repo(User)
      .createQueryBuilder('candidate')
      .where('candidate.id IN (:...valid)', { valid })
      .andWhere(
        new Brackets((scope) =>
          scope
            .where('candidate.id = :me', { me })
            .orWhere(
              'EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = candidate.id AND m.business_id = :active)',
              { active },
            ),
        ),
      )
      .getMany();
  }

  /** The active business, the businesses the caller belongs to, and those that invited the signed-in user. */
  async businessesByIds(ctx: RequestContext, ids: string[]): Promise<Business[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const { me, active } = callerScope(ctx);
    return ctx
      .repo(Business)
      .createQueryBuilder('business')
      .where('business.id IN (:...valid)', { valid })
      .andWhere(
        new Brackets((scope) =>
          scope
            .where('business.id = :active', { active })
            .orWhere('EXISTS (SELECT 1 FROM memberships m WHERE m.business_id = business.id AND m.user_id = :me)', {
              me,
            })
            .orWhere(
              `EXISTS (SELECT 1 FROM team_invitations i JOIN users u ON u.email = i.email
                          WHERE i.business_id = business.id AND u.id = :me)`,
              { me },
            ),
        ),
      )
      .getMany();
  }

  private visibleMemberships(ctx: RequestContext) {
    const { me, active } = callerScope(ctx);
    return ctx
      .repo(Membership)
      .createQueryBuilder('membership')
      .where(
        new Brackets((scope) =>
          scope.where('membership.userId = :me', { me }).orWhere('membership.businessId = :active', { active }),
        ),
      )
      .orderBy('membership.createdAt', 'ASC');
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
