import { Field, ID, InputType } from 'type-graphql';
import { Mode, Role } from '../../domain/shared/modes';
import { IdInput } from '../shared/payload';

@InputType({ description: 'A new account; the code to confirm it is emailed to the address' })
export class SignUpInput {
  @Field({
    description: 'The email address of the new account (stored lower case); the confirmation code is sent there',
  })
  email: string;
  @Field({ description: 'At least 10 characters' }) password: string;
  @Field({ description: "The user's name: 1 to 200 characters" }) name: string;
  @Field({ description: "The name of the account's first business: 1 to 200 characters" }) businessName: string;
}

@InputType({ description: 'A pending sign-up and the code emailed for it' })
export class ConfirmSignUpInput {
  @Field({ description: 'The signUpToken signUp answered (su_…)' }) signUpToken: string;
  @Field({ description: 'The 6-digit code emailed to the address' }) code: string;
}

@InputType({ description: "A dashboard user's email and password" })
export class SignInInput {
  @Field({ description: 'The email address of the account (any letter case)' }) email: string;
  @Field({ description: "The account's password" }) password: string;
}

@InputType({ description: 'The fields to change; an omitted field stays as it is' })
export class UpdateBusinessSettingsInput {
  @Field({ nullable: true, description: "The business's new name, 1 to 200 characters (OWNER or ADMIN only)" })
  name?: string;
  @Field(() => String, { nullable: true, description: 'Set to null to remove' }) webhookUrl?: string | null;
}

@InputType({ description: 'The mode whose API key to replace' })
export class RegenerateApiKeyInput {
  @Field(() => Mode, { description: 'The mode whose API key is replaced' }) mode: Mode;
}

@InputType({ description: 'A membership of the active business and the role it gets' })
export class ChangeTeamMemberRoleInput {
  @Field(() => ID, { description: 'The membership whose role changes' }) membershipId: string;
  @Field(() => Role, { description: 'The new role (granting or taking away OWNER needs an OWNER)' }) role: Role;
}

export const RemoveTeamMemberInput = IdInput('RemoveTeamMember', 'The membership to remove');
export type RemoveTeamMemberInput = InstanceType<typeof RemoveTeamMemberInput>;

@InputType({ description: 'Who to invite to the active business, and with which role' })
export class InviteTeamMemberInput {
  @Field({
    description:
      'The email address invited (stored lower case); only the signed-in user with this email can answer the invitation',
  })
  email: string;
  @Field(() => Role, { description: 'The role the invitee gets on accepting (inviting an OWNER needs an OWNER)' })
  role: Role;
}

export const AcceptTeamInvitationInput = IdInput('AcceptTeamInvitation', 'One of your pending invitations');
export type AcceptTeamInvitationInput = InstanceType<typeof AcceptTeamInvitationInput>;
export const DeclineTeamInvitationInput = IdInput('DeclineTeamInvitation', 'One of your pending invitations');
export type DeclineTeamInvitationInput = InstanceType<typeof DeclineTeamInvitationInput>;
export const RevokeTeamInvitationInput = IdInput('RevokeTeamInvitation', 'A pending invitation of the active business');
export type RevokeTeamInvitationInput = InstanceType<typeof RevokeTeamInvitationInput>;
