import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ADMIN_ROLES } from '../../domain/shared/context';
import { GraphQLContext, caller } from '../shared/context';
import { parseInput } from '../../wire/validation';
import { inviteSchema } from '../../wire/accounts';
import { Business, InviteTeamMemberInput, Membership, TeamInvitation } from './identity.types';

@Resolver(() => TeamInvitation)
export class TeamInvitationResolver {
  @Mutation(() => TeamInvitation, {
    description: 'Invites an email to the active business with a role (OWNER/ADMIN); answers the same whether or not an account uses the email',
  })
  async inviteTeamMember(@Arg('input') input: InviteTeamMemberInput, @Ctx() context: GraphQLContext): Promise<TeamInvitation> {
    const ctx = caller(context);
    ctx.requireDashboardRole(...ADMIN_ROLES); // refused callers learn nothing of the shape (checked again by the domain)
    return context.core.teamInvitations.invite(ctx, parseInput(inviteSchema, input));
  }

  @Query(() => [TeamInvitation], { description: 'Pending invitations of the active business' })
  async teamInvitations(@Ctx() context: GraphQLContext): Promise<TeamInvitation[]> {
    return context.core.teamInvitations.pendingForBusiness(caller(context));
  }

  @Query(() => [TeamInvitation], { description: "The signed-in user's pending invitations, of every business" })
  async myInvitations(@Ctx() context: GraphQLContext): Promise<TeamInvitation[]> {
    return context.core.teamInvitations.pendingForMe(caller(context));
  }

  @Mutation(() => Membership, { description: 'Accepts one of your invitations: you join its business with its role' })
  async acceptTeamInvitation(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<Membership> {
    return context.core.teamInvitations.accept(caller(context), id);
  }

  @Mutation(() => TeamInvitation, { description: 'Declines one of your invitations' })
  async declineTeamInvitation(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<TeamInvitation> {
    return context.core.teamInvitations.decline(caller(context), id);
  }

  @Mutation(() => TeamInvitation, { description: 'Withdraws a pending invitation of the active business (OWNER/ADMIN)' })
  async revokeTeamInvitation(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<TeamInvitation> {
    return context.core.teamInvitations.revoke(caller(context), id);
  }

  /** The invitee reached this business through an invitation to their own email (or a member through their own business). */
  @FieldResolver(() => Business)
  async business(@Root() invitation: TeamInvitation, @Ctx() { loaders }: GraphQLContext): Promise<Business> {
    return (await loaders.businessById.load(invitation.businessId))!;
  }
}
