import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { TeamInvitation as TeamInvitationRow } from '../../domain/identity';
import { ADMIN_ROLES } from '../../domain/shared/context';
import { notFound } from '../../domain/shared/errors';
import { GraphQLContext, caller } from '../shared/context';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import { parseInput } from '../../wire/validation';
import { inviteSchema } from '../../wire/accounts';
import {
  AcceptTeamInvitationInput,
  DeclineTeamInvitationInput,
  InviteTeamMemberInput,
  RevokeTeamInvitationInput,
} from './identity.inputs';
import {
  AcceptTeamInvitationPayload,
  DeclineTeamInvitationPayload,
  InviteTeamMemberPayload,
  RevokeTeamInvitationPayload,
} from './identity.payloads';
import { Business, Membership, TeamInvitation, TeamInvitationConnection } from './identity.types';
import { pageOfList } from './list-page';

const invitationOf = (row: TeamInvitationRow): TeamInvitation => Object.assign(new TeamInvitation(), row);

// A pending invitation, to the business that sent it or to the signed-in invitee (as teamInvitations and myInvitations answer it).
defineNode({
  type: TeamInvitation,
  entity: TeamInvitationRow,
  load: async (context, id) => {
    const ctx = caller(context);
    const ofBusiness = ctx.businessId ? await context.core.teamInvitations.pendingForBusiness(ctx) : [];
    const mine = ctx.actor.kind === 'dashboard' ? await context.core.teamInvitations.pendingForMe(ctx) : [];
    const invitation = [...ofBusiness, ...mine].find((row) => row.id === id);
    if (!invitation) throw notFound('Invitation');
    return invitationOf(invitation);
  },
});

@Resolver(() => TeamInvitation)
export class TeamInvitationResolver {
  @Mutation(() => InviteTeamMemberPayload, {
    description:
      'Invites an email to the active business with a role (OWNER/ADMIN); answers the same whether or not an account uses the email',
  })
  async inviteTeamMember(
    @Arg('input', { description: 'The email to invite and its role' }) input: InviteTeamMemberInput,
    @Ctx() context: GraphQLContext,
  ): Promise<InviteTeamMemberPayload> {
    const ctx = caller(context);
    ctx.requireDashboardRole(...ADMIN_ROLES); // refused callers learn nothing of the shape (checked again by the domain)
    return payloadOf(InviteTeamMemberPayload, async () =>
      invitationOf(await context.core.teamInvitations.invite(ctx, parseInput(inviteSchema, input))),
    );
  }

  @Query(() => TeamInvitationConnection, {
    description: 'Pending invitations of the active business, newest first',
    complexity: perRow,
  })
  async teamInvitations(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
  ): Promise<TeamInvitationConnection> {
    const invitations = await context.core.teamInvitations.pendingForBusiness(caller(context));
    return toConnection(pageOfList(invitations, 'newestFirst', 'teamInvitations', { first, after }), invitationOf);
  }

  @Query(() => TeamInvitationConnection, {
    description: "The signed-in user's pending invitations, of every business, newest first",
    complexity: perRow,
  })
  async myInvitations(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
  ): Promise<TeamInvitationConnection> {
    const invitations = await context.core.teamInvitations.pendingForMe(caller(context));
    return toConnection(pageOfList(invitations, 'newestFirst', 'myInvitations', { first, after }), invitationOf);
  }

  @Mutation(() => AcceptTeamInvitationPayload, {
    description: 'Accepts one of your invitations: you join its business with its role',
  })
  async acceptTeamInvitation(
    @Arg('input', { description: 'The invitation to accept' }) input: AcceptTeamInvitationInput,
    @Ctx() context: GraphQLContext,
  ): Promise<AcceptTeamInvitationPayload> {
    const ctx = caller(context);
    return payloadOf(AcceptTeamInvitationPayload, async () =>
      Object.assign(new Membership(), await context.core.teamInvitations.accept(ctx, input.id)),
    );
  }

  @Mutation(() => DeclineTeamInvitationPayload, { description: 'Declines one of your invitations' })
  async declineTeamInvitation(
    @Arg('input', { description: 'The invitation to decline' }) input: DeclineTeamInvitationInput,
    @Ctx() context: GraphQLContext,
  ): Promise<DeclineTeamInvitationPayload> {
    const ctx = caller(context);
    return payloadOf(DeclineTeamInvitationPayload, async () =>
      invitationOf(await context.core.teamInvitations.decline(ctx, input.id)),
    );
  }

  @Mutation(() => RevokeTeamInvitationPayload, {
    description: 'Withdraws a pending invitation of the active business (OWNER/ADMIN)',
  })
  async revokeTeamInvitation(
    @Arg('input', { description: 'The invitation to withdraw' }) input: RevokeTeamInvitationInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RevokeTeamInvitationPayload> {
    const ctx = caller(context);
    return payloadOf(RevokeTeamInvitationPayload, async () =>
      invitationOf(await context.core.teamInvitations.revoke(ctx, input.id)),
    );
  }

  /** The invitee reached this business through an invitation to their own email (or a member through their own business). */
  @FieldResolver(() => Business, { description: 'The business the invitation is to join' })
  async business(@Root() invitation: TeamInvitation, @Ctx() { loaders }: GraphQLContext): Promise<Business> {
    return Object.assign(new Business(), (await loaders.businessById.load(invitation.businessId))!);
  }
}
