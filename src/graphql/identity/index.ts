import type { Core } from '../../domain/core';
import type { RequestContext } from '../../domain/shared/context';
import { AuthResolver, BusinessResolver, MembershipResolver, UserResolver } from './identity.resolver';
import { TeamInvitationResolver } from './team-invitation.resolver';
import { createIdentityLoaders } from './identity.loaders';

/** The identity area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [AuthResolver, UserResolver, MembershipResolver, BusinessResolver, TeamInvitationResolver];

/** Its per-request DataLoaders. */
export const loaders = (core: Core, ctx: RequestContext) => createIdentityLoaders(core, ctx);
