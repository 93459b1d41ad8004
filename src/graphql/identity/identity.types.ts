import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ApiCredential as ApiCredentialRow, TeamInvitationStatus, User as UserRow } from '../../domain/identity';
import { BusinessSettings as BusinessSettingsRow } from '../../domain/shared/business-settings.entity';
import { Mode, Role } from '../../domain/shared/modes';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';

registerEnumType(Role, {
  name: 'Role',
  description: 'What a team member may do: VIEWER only reads',
  valuesConfig: {
    OWNER: {
      description:
        'Everything, including what only an OWNER may do: grant, take away or remove OWNER, issue live credentials and /v1 keys, set the payout PIN',
    },
    ADMIN: {
      description:
        'Everything but what only an OWNER may do: renames the business, manages the team and invitations, approves or rejects payouts',
    },
    DEVELOPER: {
      description:
        'Reads and the everyday writes (payments, payouts, webhooks, API keys, sandbox); no team changes, renaming or payout approval',
    },
    VIEWER: { description: 'Reads only' },
  },
});
registerEnumType(TeamInvitationStatus, {
  name: 'TeamInvitationStatus',
  description: 'PENDING until accepted, declined or revoked',
  valuesConfig: {
    PENDING: { description: 'Not answered yet; it can be accepted until expiresAt, and keeps this status after it' },
    ACCEPTED: { description: 'The invitee accepted it and became a member with its role' },
    DECLINED: { description: 'The invitee declined it' },
    REVOKED: { description: 'The business withdrew it before it was answered' },
  },
});
registerEnumType(Mode, {
  name: 'Mode',
  description: 'TEST (sandbox, no real money) or LIVE',
  valuesConfig: {
    TEST: { description: 'Sandbox: test credentials (bk_test_…) and play money; REST answers livemode false' },
    LIVE: { description: 'Real money: live credentials (bk_live_…); REST answers livemode true' },
  },
});

@ObjectType({ description: 'A dashboard account', implements: Node })
export class User extends Node {
  @Field({ description: "The user's sign-in email address (lower case)" }) email: string;
  @Field({ description: "The user's name, as given at sign-up" }) name: string;
  @Field({ description: 'When the account was created (ISO 8601, UTC)' }) createdAt: Date;
}

@ObjectType({ description: 'A merchant business', implements: Node })
export class Business extends Node {
  @Field({ description: "The business's name (updateBusinessSettings changes it)" }) name: string;
  @Field({ description: "The business's contact email address (at sign-up, its first owner's)" }) email: string;
  @Field({ description: 'Whether the treasury (banking-as-a-service) product is enabled' }) treasuryEnabled: boolean;
  @Field({ description: 'Verified by the operator: only a verified business gets /v1 keys and /v1 access' })
  verified: boolean;
  @Field({ description: 'When the business was created (ISO 8601, UTC)' }) createdAt: Date;
}

@ObjectType({ description: "A user's membership of a business, with a role", implements: Node })
export class Membership extends Node {
  @Field(() => Role, { description: "The member's role in this business" }) role: Role;
  @Field({ description: 'When the user joined the business (ISO 8601, UTC)' }) createdAt: Date;
  userId: string;
  businessId: string;
  /** The member's user when the domain answered it (a removed member, whom the caller no longer reaches by id). */
  user?: UserRow;
}

@ObjectType({
  description: 'Settings of the active business in the active mode (one per business and mode: its id stays the same)',
  implements: Node,
})
export class BusinessSettings extends Node {
  @Field(() => Mode, { description: "The mode these settings apply to (the request's mode)" }) mode: Mode;
  @Field(() => String, { nullable: true, description: 'Receives every event of this business and mode' })
  webhookUrl: string | null;
  @Field({ description: "When this mode's settings last changed (ISO 8601, UTC)" }) updatedAt: Date;

  static from(row: BusinessSettingsRow): BusinessSettings {
    return Object.assign(new BusinessSettings(), {
      id: row.id,
      mode: row.livemode ? Mode.LIVE : Mode.TEST,
      webhookUrl: row.webhookUrl,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: 'An API key/secret pair; only hints are readable after creation', implements: Node })
export class ApiCredential extends Node {
  @Field(() => Mode, { description: 'The mode the key and secret act in' }) mode: Mode;
  @Field({ description: 'The first 12 characters of the API key and an ellipsis (bk_test_AbCd…), safe to display' })
  keyHint: string;
  @Field({ description: 'The first 12 characters of the API secret and an ellipsis (bs_test_AbCd…), safe to display' })
  secretHint: string;
  @Field({
    description: 'Browser-safe key (pk_test_…/pk_live_…) that only creates card tokens; unchanged by regenerateApiKey',
  })
  publishableKey: string;
  @Field(() => Int, {
    description: 'Starts at 1 and goes up by one at each regenerateApiKey (tokens of an older version stop working)',
  })
  keyVersion: number;
  @Field(() => Date, {
    nullable: true,
    description: 'When the credential was last exchanged for a token (ISO 8601, UTC); null if never',
  })
  lastUsedAt: Date | null;
  @Field({ description: 'When the credential was issued (ISO 8601, UTC)' }) createdAt: Date;

  static from(row: ApiCredentialRow): ApiCredential {
    return Object.assign(new ApiCredential(), { ...row, mode: row.livemode ? Mode.LIVE : Mode.TEST });
  }
}

@ObjectType({ description: 'Credentials shown exactly once; store them now' })
export class IssuedCredentials {
  @Field(() => Mode, { description: 'The mode the credentials act in' }) mode: Mode;
  @Field({ description: 'The API key (bk_test_…/bk_live_…), for x-api-key or the token exchange; shown only here' })
  apiKey: string;
  @Field({ description: 'Also the webhook signing secret' }) apiSecret: string;
  @Field({ description: 'Browser-safe key that only creates card tokens; readable again later in apiCredentials' })
  publishableKey: string;
}

@ObjectType({
  description:
    'A sign-up waiting for the code emailed to its address; the same answer whether or not the address has an account',
})
export class PendingSignUp {
  @Field({ description: 'Pass to confirmSignUp with the emailed code' }) signUpToken: string;
  @Field(() => Int, { description: 'Seconds until the sign-up expires' }) expiresIn: number;
}

@ObjectType({ description: 'The account a confirmed sign-up opened, and a dashboard session for it' })
export class NewAccount {
  @Field({ description: 'Dashboard JWT' }) token: string;
  @Field(() => Int, { description: 'Seconds until the token expires (3600)' }) expiresIn: number;
  @Field(() => User, { description: 'The new user' }) user: User;
  @Field(() => Business, { description: "The new user's first business, with them as OWNER" }) business: Business;
  @Field(() => IssuedCredentials, { description: "The business's test credentials, shown only here" })
  testCredentials: IssuedCredentials;
}

@ObjectType({ description: 'A dashboard session: a JWT for Authorization: Bearer' })
export class DashboardSession {
  @Field({ description: 'Dashboard JWT' }) token: string;
  @Field(() => Int, { description: 'Seconds until the token expires (3600); sign in again afterwards' })
  expiresIn: number;
  @Field(() => User, { description: 'The signed-in user' }) user: User;
}

@ObjectType({ description: "The API key that replaced a mode's previous one; the secret is unchanged" })
export class RegeneratedApiKey {
  @Field(() => Mode, { description: 'The mode whose key was replaced' }) mode: Mode;
  @Field({ description: 'The new key, shown once; the previous key no longer works' }) apiKey: string;
  @Field({
    description: 'The first 12 characters of the new key and an ellipsis, as apiCredentials shows it from now on',
  })
  keyHint: string;
}

@ObjectType({
  description: 'An invitation to join a business with a role, until its invitee accepts or declines it',
  implements: Node,
})
export class TeamInvitation extends Node {
  @Field({ description: 'The invited email address (lower case)' }) email: string;
  @Field(() => Role, { description: 'The role the invitee gets on accepting' }) role: Role;
  @Field(() => TeamInvitationStatus, { description: 'Whether it is still waiting for an answer, or how it ended' })
  status: TeamInvitationStatus;
  @Field({ description: 'When it can no longer be accepted: 7 days after it was sent or last renewed (ISO 8601, UTC)' })
  expiresAt: Date;
  @Field({ description: 'When it was first sent (ISO 8601, UTC)' }) createdAt: Date;
  businessId: string;
}

@ObjectType({ description: 'A page of team members (memberships of the active business), oldest first' })
export class MembershipConnection extends Connection(Membership, 'Membership') {}

@ObjectType({ description: 'A page of pending team invitations, newest first' })
export class TeamInvitationConnection extends Connection(TeamInvitation, 'TeamInvitation') {}
