import { FindOptionsWhere } from 'typeorm';
import { Business, Membership } from './identity.entities';
import { Role } from '../shared/modes';
import { RequestContext } from '../shared/context';
import { forbidden } from '../shared/errors';
import { isUuid } from '../shared/ids';

/** Only an OWNER grants or takes away the OWNER role (invitations included). */
export function assertMayGrant(ctx: RequestContext, role: Role): void {
  if (role === Role.OWNER) ctx.requireDashboardRole(Role.OWNER);
}

export interface LockedTeam {
  /** The transaction, its dashboard caller holding the role of now (not the one read when the request was authorised). */
  tx: RequestContext;
  /** The caller's own membership (null for the system). */
  caller: Membership | null;
  /** The membership the operation changes, when it names one that belongs to the business. */
  target: Membership | null;
}

/**
 * Every change to a team (a role, a removal, an invitation and its withdrawal) starts here, in its
 * writing transaction. The business row is locked first, so the changes of one business run one
 * after another (two OWNERs demoting each other would otherwise each still count the other); then
 * the caller's and the target's memberships, in id order. The caller is authorised again against
 * the role of now: a request authorised before a demotion committed, and held until after it,
 * would otherwise act with the role it lost (issue 26, finding 1).
 */
export async function lockTeam(
  tx: RequestContext,
  roles: Role[],
  targetMembershipId: string | null = null,
): Promise<LockedTeam> {
  const businessId = tx.requireBusiness();
  await tx.repo(Business).findOne({ where: { id: businessId }, lock: { mode: 'for_no_key_update' } });
  const callerUserId = tx.actor.kind === 'dashboard' ? tx.actor.userId : null;
  const targetId = targetMembershipId !== null && isUuid(targetMembershipId) ? targetMembershipId : null;
  const wanted: Array<FindOptionsWhere<Membership>> = [];
  if (callerUserId) wanted.push({ businessId, userId: callerUserId });
  if (targetId) wanted.push({ businessId, id: targetId });
  const rows =
    wanted.length > 0
      ? await tx.repo(Membership).find({ where: wanted, order: { id: 'ASC' }, lock: { mode: 'pessimistic_write' } })
      : [];
  const caller = callerUserId ? (rows.find((row) => row.userId === callerUserId) ?? null) : null;
  const target = targetId ? (rows.find((row) => row.id === targetId) ?? null) : null;
  if (tx.actor.kind !== 'dashboard') return { tx, caller, target };
  if (!caller || !roles.includes(caller.role)) {
    throw forbidden(
      `Your role in this business changed before this request could apply; it needs one of the roles ${roles.join(', ')}`,
    );
  }
  return { tx: tx.forBusiness(businessId, tx.mode, caller.role), caller, target };
}
