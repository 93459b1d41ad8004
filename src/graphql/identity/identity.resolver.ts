import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Mode, Role } from '../../domain/identity/identity.entities';
import { WRITE_ROLES } from '../../domain/shared/context';
import { GraphQLContext, caller } from '../shared/context';
import { parseInput } from '../../wire/validation';
import { businessSettingsSchema, newAccountSchema } from '../../wire/accounts';
import {
  ApiCredential, Business, BusinessSettings, IssuedCredentials, Membership, RegeneratedApiKey,
  SignInInput, SignInPayload, SignUpInput, SignUpPayload, SignUpStarted, UpdateBusinessSettingsInput, User,
} from './identity.types';

const settingsOf = (row: { livemode: boolean; webhookUrl: string | null; updatedAt: Date }): BusinessSettings =>
  ({ mode: row.livemode ? Mode.LIVE : Mode.TEST, webhookUrl: row.webhookUrl, updatedAt: row.updatedAt });

@Resolver()
export class AuthResolver {
  @Mutation(() => SignUpStarted, {
    description: 'Starts a sign-up: emails the address a 6-digit code (or, when it already has an account, a notice to sign in). Same answer either way',
  })
  async signUp(@Arg('input') input: SignUpInput, @Ctx() { core, origin }: GraphQLContext): Promise<SignUpStarted> {
    return core.signUps.start(core.anonymousContext(origin), parseInput(newAccountSchema, input));
  }

  @Mutation(() => SignUpPayload, { description: 'Finishes a sign-up with the emailed code: creates the user, their first business and its test credentials' })
  async confirmSignUp(
    @Arg('signUpToken') signUpToken: string,
    @Arg('code') code: string,
    @Ctx() { core, origin }: GraphQLContext,
  ): Promise<SignUpPayload> {
    const { user, business, credentials, token } = await core.signUps.confirm(core.anonymousContext(origin), { signUpToken, code });
    return { token, expiresIn: core.config.jwtTtlSeconds, user, business, testCredentials: credentials };
  }

  @Mutation(() => SignInPayload, { description: 'Returns a dashboard JWT' })
  async signIn(@Arg('input') input: SignInInput, @Ctx() { core, origin }: GraphQLContext): Promise<SignInPayload> {
    return core.identity.auth.signIn(core.anonymousContext(origin), input);
  }

  @Query(() => User, { description: 'The signed-in dashboard user' })
  async me(@Ctx() context: GraphQLContext): Promise<User> {
    return context.core.identity.auth.currentUser(caller(context));
  }
}

@Resolver(() => User)
export class UserResolver {
  @FieldResolver(() => [Membership], { description: "The user's businesses and roles" })
  async memberships(@Root() user: User, @Ctx() { loaders }: GraphQLContext): Promise<Membership[]> {
    const memberships = await loaders.membershipsByUserId.load(user.id);
    // A teammate's other businesses belong to other tenants.
    const scope = user.reachedThroughBusinessId;
    return scope ? memberships.filter((membership) => membership.businessId === scope) : memberships;
  }
}

@Resolver(() => Membership)
export class MembershipResolver {
  @FieldResolver(() => User)
  async user(@Root() membership: Membership, @Ctx() { loaders }: GraphQLContext): Promise<User> {
    const user = (await loaders.userById.load(membership.userId))!;
    return { ...user, reachedThroughBusinessId: membership.businessId };
  }

  @FieldResolver(() => Business)
  async business(@Root() membership: Membership, @Ctx() { loaders }: GraphQLContext): Promise<Business> {
    return (await loaders.businessById.load(membership.businessId))!;
  }
}

@Resolver(() => Business)
export class BusinessResolver {
  @Query(() => Business, { description: 'The active business (X-Service-Business-Id, or the only one)' })
  async business(@Ctx() context: GraphQLContext): Promise<Business> {
    return context.core.identity.businesses.business(caller(context));
  }

  @Query(() => BusinessSettings, { description: 'Settings of the active business in the active mode' })
  async businessSettings(@Ctx() context: GraphQLContext): Promise<BusinessSettings> {
    return settingsOf(await context.core.identity.businesses.settings(caller(context)));
  }

  @Mutation(() => BusinessSettings)
  async updateBusinessSettings(@Arg('input') input: UpdateBusinessSettingsInput, @Ctx() context: GraphQLContext): Promise<BusinessSettings> {
    const ctx = caller(context);
    ctx.requireRole(...WRITE_ROLES); // refused callers learn nothing of the shape (checked again by the domain)
    return settingsOf((await context.core.identity.businesses.updateSettings(ctx, parseInput(businessSettingsSchema, input))).settings);
  }

  @Query(() => [ApiCredential])
  async apiCredentials(@Ctx() context: GraphQLContext): Promise<ApiCredential[]> {
    return (await context.core.identity.credentials.list(caller(context))).map(ApiCredential.from);
  }

  @Mutation(() => IssuedCredentials, { description: 'Issues live credentials (OWNER only); shown once' })
  async createLiveCredentials(@Ctx() context: GraphQLContext): Promise<IssuedCredentials> {
    return context.core.identity.credentials.createLive(caller(context));
  }

  @Mutation(() => RegeneratedApiKey, { description: 'Replaces the API key of a mode; the old key stops working at once' })
  async regenerateApiKey(@Arg('mode', () => Mode) mode: Mode, @Ctx() context: GraphQLContext): Promise<RegeneratedApiKey> {
    return context.core.identity.credentials.regenerateApiKey(caller(context), { mode });
  }

  @Query(() => [Membership], { description: 'Team members of the active business' })
  async teamMembers(@Ctx() context: GraphQLContext): Promise<Membership[]> {
    return context.core.identity.team.members(caller(context));
  }

  @Mutation(() => Membership)
  async changeTeamMemberRole(
    @Arg('membershipId', () => ID) membershipId: string,
    @Arg('role', () => Role) role: Role,
    @Ctx() context: GraphQLContext,
  ): Promise<Membership> {
    return context.core.identity.team.changeMemberRole(caller(context), { membershipId, role });
  }

  @Mutation(() => Membership, { description: 'Removes a member; the last OWNER cannot be removed' })
  async removeTeamMember(@Arg('membershipId', () => ID) membershipId: string, @Ctx() context: GraphQLContext): Promise<Membership> {
    return context.core.identity.team.removeMember(caller(context), membershipId);
  }
}
