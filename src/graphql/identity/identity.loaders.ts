import DataLoader from 'dataloader';
import { Core } from '../../domain/core';
import { RequestContext } from '../../domain/shared/context';
import { Business, Membership, User } from '../../domain/identity';
import { alignTo, groupBy } from '../shared/keyed';

/** The identity area's per-request DataLoaders. */
export interface IdentityLoaders {
  userById: DataLoader<string, User | null>;
  businessById: DataLoader<string, Business | null>;
  /** Memberships the caller may see (their own and the active business's; null for any other id). */
  membershipById: DataLoader<string, Membership | null>;
  /** A user's memberships the caller may see: all of their own, only the active business's of anyone else. */
  membershipsByUserId: DataLoader<string, Membership[]>;
}

declare module '../shared/loaders' {
  interface Loaders extends IdentityLoaders {}
}

export function createIdentityLoaders(core: Core, ctx: RequestContext): IdentityLoaders {
  return {
    userById: new DataLoader(async (ids) =>
      alignTo(ids, await core.identity.team.usersByIds(ctx, [...ids]), (user) => user.id),
    ),
    businessById: new DataLoader(async (ids) =>
      alignTo(ids, await core.identity.team.businessesByIds(ctx, [...ids]), (business) => business.id),
    ),
    membershipById: new DataLoader(async (ids) =>
      alignTo(ids, await core.identity.team.membershipsByIds(ctx, [...ids]), (membership) => membership.id),
    ),
    membershipsByUserId: new DataLoader(async (userIds) =>
      groupBy(
        userIds,
        await core.identity.team.membershipsOfUsers(ctx, [...userIds]),
        (membership) => membership.userId,
      ),
    ),
  };
}
