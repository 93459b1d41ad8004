import type { Core } from '../../domain/core';
import type { RequestContext } from '../../domain/shared/context';
import { AuthResolver, BusinessResolver, MembershipResolver, UserResolver } from './identity.resolver';
import { TeamInvitationResolver } from './team-invitation.resolver';
import { createIdentityLoaders } from './identity.loaders';
import { V1KeyResolver } from './v1-key.resolver';

/** The identity area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [
  AuthResolver,
  UserResolver,
  MembershipResolver,
  BusinessResolver,
  TeamInvitationResolver,
  V1KeyResolver,
];

/** Its per-request DataLoaders. */
export const loaders = (core: Core, ctx: RequestContext) => createIdentityLoaders(core, ctx);
