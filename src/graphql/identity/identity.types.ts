import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ApiCredential as ApiCredentialRow, BusinessSettings as BusinessSettingsRow, Mode, Role, User as UserRow } from '../../domain/identity/identity.entities';
import { TeamInvitationStatus } from '../../domain/identity/team-invitation.entity';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';

registerEnumType(Role, { name: 'Role', description: 'What a team member may do: VIEWER only reads' });
registerEnumType(TeamInvitationStatus, { name: 'TeamInvitationStatus', description: 'PENDING until accepted, declined or revoked' });
registerEnumType(Mode, { name: 'Mode', description: 'TEST (sandbox, no real money) or LIVE' });

@ObjectType({ description: 'A dashboard account', implements: Node })
export class User extends Node {
  @Field() email: string;
  @Field() name: string;
  @Field() createdAt: Date;
}

@ObjectType({ description: 'A merchant business', implements: Node })
export class Business extends Node {
  @Field() name: string;
  @Field() email: string;
  @Field({ description: 'Whether the treasury (banking-as-a-service) product is enabled' }) treasuryEnabled: boolean;
  @Field({ description: 'Verified by the operator: only a verified business gets /v1 keys and /v1 access' }) verified: boolean;
  @Field() createdAt: Date;
}

@ObjectType({ description: "A user's membership of a business, with a role", implements: Node })
export class Membership extends Node {
  @Field(() => Role) role: Role;
  @Field() createdAt: Date;
  userId: string;
  businessId: string;
  /** The member's user when the domain answered it (a removed member, whom the caller no longer reaches by id). */
  user?: UserRow;
}

@ObjectType({ description: 'Settings of the active business in the active mode (one per business and mode: its id stays the same)', implements: Node })
export class BusinessSettings extends Node {
  @Field(() => Mode) mode: Mode;
  @Field(() => String, { nullable: true, description: 'Receives every event of this business and mode' })
  webhookUrl: string | null;
  @Field() updatedAt: Date;

  static from(row: BusinessSettingsRow): BusinessSettings {
    return Object.assign(new BusinessSettings(), { id: row.id, mode: row.livemode ? Mode.LIVE : Mode.TEST, webhookUrl: row.webhookUrl, updatedAt: row.updatedAt });
  }
}

@ObjectType({ description: 'An API key/secret pair; only hints are readable after creation', implements: Node })
export class ApiCredential extends Node {
  @Field(() => Mode) mode: Mode;
  @Field() keyHint: string;
  @Field() secretHint: string;
  @Field({ description: 'Browser-safe key (pk_test_…/pk_live_…) that only creates card tokens; unchanged by regenerateApiKey' })
  publishableKey: string;
  @Field(() => Int) keyVersion: number;
  @Field(() => Date, { nullable: true }) lastUsedAt: Date | null;
  @Field() createdAt: Date;

  static from(row: ApiCredentialRow): ApiCredential {
    return Object.assign(new ApiCredential(), { ...row, mode: row.livemode ? Mode.LIVE : Mode.TEST });
  }
}

@ObjectType({ description: 'Credentials shown exactly once; store them now' })
export class IssuedCredentials {
  @Field(() => Mode) mode: Mode;
  @Field() apiKey: string;
  @Field({ description: 'Also the webhook signing secret' }) apiSecret: string;
  @Field({ description: 'Browser-safe key that only creates card tokens; readable again later in apiCredentials' }) publishableKey: string;
}

@ObjectType({ description: 'A sign-up waiting for the code emailed to its address; the same answer whether or not the address has an account' })
export class PendingSignUp {
  @Field({ description: 'Pass to confirmSignUp with the emailed code' }) signUpToken: string;
  @Field(() => Int, { description: 'Seconds until the sign-up expires' }) expiresIn: number;
}

@ObjectType({ description: 'The account a confirmed sign-up opened, and a dashboard session for it' })
export class NewAccount {
  @Field({ description: 'Dashboard JWT' }) token: string;
  @Field(() => Int) expiresIn: number;
  @Field(() => User) user: User;
  @Field(() => Business) business: Business;
  @Field(() => IssuedCredentials) testCredentials: IssuedCredentials;
}

@ObjectType({ description: 'A dashboard session: a JWT for Authorization: Bearer' })
export class DashboardSession {
  @Field({ description: 'Dashboard JWT' }) token: string;
  @Field(() => Int) expiresIn: number;
  @Field(() => User) user: User;
}

@ObjectType()
export class RegeneratedApiKey {
  @Field(() => Mode) mode: Mode;
  @Field({ description: 'The new key, shown once; the previous key no longer works' }) apiKey: string;
  @Field() keyHint: string;
}

@ObjectType({ description: 'An invitation to join a business with a role, until its invitee accepts or declines it', implements: Node })
export class TeamInvitation extends Node {
  @Field() email: string;
  @Field(() => Role) role: Role;
  @Field(() => TeamInvitationStatus) status: TeamInvitationStatus;
  @Field() expiresAt: Date;
  @Field() createdAt: Date;
  businessId: string;
}

@ObjectType()
export class MembershipConnection extends Connection(Membership, 'Membership') {}

@ObjectType()
export class TeamInvitationConnection extends Connection(TeamInvitation, 'TeamInvitation') {}
