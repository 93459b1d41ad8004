import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import {
  ApiCredential as ApiCredentialRow,
  Business as BusinessRow,
  Membership as MembershipRow,
  User as UserRow,
} from '../../domain/identity';
import { BusinessSettings as BusinessSettingsRow } from '../../domain/shared/business-settings.entity';
import { WRITE_ROLES } from '../../domain/shared/context';
import { notFound } from '../../domain/shared/errors';
import { GraphQLContext, caller, refuseOperator } from '../shared/context';
import { createLoaders } from '../shared/loaders';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import { parseInput } from '../../wire/validation';
import { businessSettingsSchema, newAccountSchema } from '../../wire/accounts';
import {
  ChangeTeamMemberRoleInput,
  ConfirmSignUpInput,
  RegenerateApiKeyInput,
  RemoveTeamMemberInput,
  SignInInput,
  SignUpInput,
  UpdateBusinessSettingsInput,
} from './identity.inputs';
import {
  ChangeTeamMemberRolePayload,
  ConfirmSignUpPayload,
  CreateLiveCredentialsPayload,
  RegenerateApiKeyPayload,
  RemoveTeamMemberPayload,
  SignInPayload,
  SignUpPayload,
  UpdateBusinessSettingsPayload,
} from './identity.payloads';
import { ApiCredential, Business, BusinessSettings, Membership, MembershipConnection, User } from './identity.types';
import { pageOfList } from './list-page';

const as = <T extends object>(Type: new () => T, row: object): T => Object.assign(new Type(), row);

// node(id:) answers what the dashboard reaches: the signed-in user and their memberships and
// businesses, and the active business's members, settings (of the active mode) and credentials.
// Which users, businesses and memberships a caller reaches is the domain's rule (TeamService).
defineNode({
  type: User,
  entity: UserRow,
  load: async (context, id) => {
    caller(context);
    const user = await context.loaders.userById.load(id);
    if (!user) throw notFound('User');
    return as(User, user);
  },
});
defineNode({
  type: Business,
  entity: BusinessRow,
  load: async (context, id) => {
    const ctx = caller(context);
    if (ctx.businessId === id) return as(Business, await context.core.identity.businesses.business(ctx));
    const business = await context.loaders.businessById.load(id);
    if (!business) throw notFound('Business');
    return as(Business, business);
  },
});
defineNode({
  type: Membership,
  entity: MembershipRow,
  load: async (context, id) => {
    caller(context);
    const membership = await context.loaders.membershipById.load(id);
    if (!membership) throw notFound('Membership');
    return as(Membership, membership);
  },
});
defineNode({
  type: BusinessSettings,
  entity: BusinessSettingsRow,
  load: async (context, id) => {
    const settings = await context.core.identity.businesses.settings(caller(context));
    if (settings.id !== id) throw notFound('Business settings');
    return BusinessSettings.from(settings);
  },
});
defineNode({
  type: ApiCredential,
  entity: ApiCredentialRow,
  load: async (context, id) => {
    const credential = (await context.core.identity.credentials.list(caller(context))).find((row) => row.id === id);
    if (!credential) throw notFound('API credential');
    return ApiCredential.from(credential);
  },
});

/** The payload of a sign-in or sign-up is read as its new session reads (the user's own memberships), not as the anonymous caller. */
function readAsSignedIn(context: GraphQLContext, userId: string): void {
  context.loaders = createLoaders(
    context.core,
    context.core.identity.auth.signedInContext(context.core.anonymousContext(context.origin), userId),
  );
}

/**
 * Sign-up and sign-in take no credential. Their refusals are userErrors (AuthErrorCode): the input
 * is what the caller fixes. Each keeps one answer for every reason, so none tells whether an email
 * has an account: confirmSignUp's wrong, expired or used code, and signIn's unknown email, wrong
 * password or locked account.
 */
@Resolver()
export class AuthResolver {
  @Mutation(() => SignUpPayload, {
    description:
      'Starts a sign-up: emails the address a 6-digit code (or, when it already has an account, a notice to sign in). Same answer either way',
  })
  async signUp(
    @Arg('input', { description: 'The new account: email, password, name and business name' }) input: SignUpInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SignUpPayload> {
    refuseOperator(context);
    const { core, origin } = context;
    return payloadOf(SignUpPayload, async () =>
      core.signUps.start(core.anonymousContext(origin), parseInput(newAccountSchema, input)),
    );
  }

  @Mutation(() => ConfirmSignUpPayload, {
    description:
      'Finishes a sign-up with the emailed code: creates the user, their first business and its test credentials. ' +
      'A wrong, expired or used code is one userError on code, whatever the reason',
  })
  async confirmSignUp(
    @Arg('input', { description: 'The token signUp answered and the 6-digit code emailed to the address' })
    input: ConfirmSignUpInput,
    @Ctx() context: GraphQLContext,
  ): Promise<ConfirmSignUpPayload> {
    refuseOperator(context);
    const { core, origin } = context;
    return payloadOf(ConfirmSignUpPayload, async () => {
      const { user, business, credentials, token } = await core.signUps.confirm(core.anonymousContext(origin), {
        signUpToken: input.signUpToken,
        code: input.code,
      });
      readAsSignedIn(context, user.id);
      return {
        token,
        expiresIn: core.config.jwtTtlSeconds,
        user: as(User, user),
        business: as(Business, business),
        testCredentials: credentials,
      };
    });
  }

  @Mutation(() => SignInPayload, {
    description:
      'A dashboard JWT. An unknown email, a wrong password and a locked account are the same userError (UNAUTHORIZED, no field)',
  })
  async signIn(
    @Arg('input', { description: 'The email and password to sign in with' }) input: SignInInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SignInPayload> {
    refuseOperator(context);
    const { core, origin } = context;
    return payloadOf(SignInPayload, async () => {
      const { user, token, expiresIn } = await core.identity.auth.signIn(core.anonymousContext(origin), input);
      readAsSignedIn(context, user.id);
      return { token, expiresIn, user: as(User, user) };
    });
  }

  @Query(() => User, { description: 'The signed-in dashboard user' })
  async me(@Ctx() context: GraphQLContext): Promise<User> {
    return as(User, await context.core.identity.auth.currentUser(caller(context)));
  }
}

@Resolver(() => User)
export class UserResolver {
  @FieldResolver(() => [Membership], { description: "The user's businesses and roles" })
  async memberships(@Root() user: User, @Ctx() { loaders }: GraphQLContext): Promise<Membership[]> {
    return (await loaders.membershipsByUserId.load(user.id)).map((row) => as(Membership, row));
  }
}

@Resolver(() => Membership)
export class MembershipResolver {
  @FieldResolver(() => User, { description: 'The member' })
  async user(@Root() membership: Membership, @Ctx() { loaders }: GraphQLContext): Promise<User> {
    return as(User, membership.user ?? (await loaders.userById.load(membership.userId))!);
  }

  @FieldResolver(() => Business, { description: 'The business the user belongs to' })
  async business(@Root() membership: Membership, @Ctx() { loaders }: GraphQLContext): Promise<Business> {
    return as(Business, (await loaders.businessById.load(membership.businessId))!);
  }
}

@Resolver(() => Business)
export class BusinessResolver {
  @Query(() => Business, { description: 'The active business (X-Service-Business-Id, or the only one)' })
  async business(@Ctx() context: GraphQLContext): Promise<Business> {
    return as(Business, await context.core.identity.businesses.business(caller(context)));
  }

  @Query(() => BusinessSettings, { description: 'Settings of the active business in the active mode' })
  async businessSettings(@Ctx() context: GraphQLContext): Promise<BusinessSettings> {
    return BusinessSettings.from(await context.core.identity.businesses.settings(caller(context)));
  }

  @Mutation(() => UpdateBusinessSettingsPayload, {
    description: 'The business name (OWNER/ADMIN) and the webhook URL of the active mode',
  })
  async updateBusinessSettings(
    @Arg('input', { description: 'The name and/or webhook URL to set' }) input: UpdateBusinessSettingsInput,
    @Ctx() context: GraphQLContext,
  ): Promise<UpdateBusinessSettingsPayload> {
    const ctx = caller(context);
    ctx.requireRole(...WRITE_ROLES); // refused callers learn nothing of the shape (checked again by the domain)
    return payloadOf(UpdateBusinessSettingsPayload, async () =>
      BusinessSettings.from(
        (await context.core.identity.businesses.updateSettings(ctx, parseInput(businessSettingsSchema, input)))
          .settings,
      ),
    );
  }

  @Query(() => [ApiCredential], {
    description:
      "The business's credentials, at most one per mode (both modes for a dashboard user, its own for an API credential), so not paged",
  })
  async apiCredentials(@Ctx() context: GraphQLContext): Promise<ApiCredential[]> {
    return (await context.core.identity.credentials.list(caller(context))).map(ApiCredential.from);
  }

  @Mutation(() => CreateLiveCredentialsPayload, {
    description: 'Issues live credentials (OWNER only); shown once. CONFLICT when they exist',
  })
  async createLiveCredentials(@Ctx() context: GraphQLContext): Promise<CreateLiveCredentialsPayload> {
    const ctx = caller(context);
    return payloadOf(CreateLiveCredentialsPayload, async () => context.core.identity.credentials.createLive(ctx));
  }

  @Mutation(() => RegenerateApiKeyPayload, {
    description: 'Replaces the API key of a mode; the old key stops working at once',
  })
  async regenerateApiKey(
    @Arg('input', { description: 'The mode whose key is replaced' }) input: RegenerateApiKeyInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RegenerateApiKeyPayload> {
    const ctx = caller(context);
    return payloadOf(RegenerateApiKeyPayload, async () =>
      context.core.identity.credentials.regenerateApiKey(ctx, { mode: input.mode }),
    );
  }

  @Query(() => MembershipConnection, {
    description: 'Team members of the active business, oldest first',
    complexity: perRow,
  })
  async teamMembers(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
  ): Promise<MembershipConnection> {
    const members = await context.core.identity.team.members(caller(context));
    return toConnection(pageOfList(members, 'oldestFirst', 'teamMembers', { first, after }), (row) =>
      as(Membership, row),
    );
  }

  @Mutation(() => ChangeTeamMemberRolePayload, {
    description: "Another member's role (OWNER/ADMIN); the last OWNER keeps the role (CONFLICT)",
  })
  async changeTeamMemberRole(
    @Arg('input', { description: 'The membership and its new role' }) input: ChangeTeamMemberRoleInput,
    @Ctx() context: GraphQLContext,
  ): Promise<ChangeTeamMemberRolePayload> {
    const ctx = caller(context);
    return payloadOf(ChangeTeamMemberRolePayload, async () =>
      as(
        Membership,
        await context.core.identity.team.changeMemberRole(ctx, { membershipId: input.membershipId, role: input.role }),
      ),
    );
  }

  @Mutation(() => RemoveTeamMemberPayload, {
    description: 'Removes a member; the last OWNER cannot be removed (CONFLICT)',
  })
  async removeTeamMember(
    @Arg('input', { description: 'The membership to remove' }) input: RemoveTeamMemberInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RemoveTeamMemberPayload> {
    const ctx = caller(context);
    return payloadOf(RemoveTeamMemberPayload, async () =>
      as(Membership, await context.core.identity.team.removeMember(ctx, input.id)),
    );
  }
}
