import { Field, ID, InputType } from 'type-graphql';
import { Mode, Role } from '../../domain/identity/identity.entities';
import { IdInput } from '../shared/payload';

@InputType({ description: 'A new account; the code to confirm it is emailed to the address' })
export class SignUpInput {
  @Field() email: string;
  @Field({ description: 'At least 10 characters' }) password: string;
  @Field() name: string;
  @Field() businessName: string;
}

@InputType()
export class ConfirmSignUpInput {
  @Field({ description: "signUp's signUpToken" }) signUpToken: string;
  @Field({ description: 'The 6-digit code emailed to the address' }) code: string;
}

@InputType()
export class SignInInput {
  @Field() email: string;
  @Field() password: string;
}

@InputType()
export class UpdateBusinessSettingsInput {
  @Field({ nullable: true }) name?: string;
  @Field(() => String, { nullable: true, description: 'Set to null to remove' }) webhookUrl?: string | null;
}

@InputType()
export class RegenerateApiKeyInput {
  @Field(() => Mode, { description: 'The mode whose API key is replaced' }) mode: Mode;
}

@InputType()
export class ChangeTeamMemberRoleInput {
  @Field(() => ID, { description: 'The membership whose role changes' }) membershipId: string;
  @Field(() => Role) role: Role;
}

export const RemoveTeamMemberInput = IdInput('RemoveTeamMember', 'The membership to remove');
export type RemoveTeamMemberInput = InstanceType<typeof RemoveTeamMemberInput>;

@InputType()
export class InviteTeamMemberInput {
  @Field() email: string;
  @Field(() => Role) role: Role;
}

export const AcceptTeamInvitationInput = IdInput('AcceptTeamInvitation', 'One of your pending invitations');
export type AcceptTeamInvitationInput = InstanceType<typeof AcceptTeamInvitationInput>;
export const DeclineTeamInvitationInput = IdInput('DeclineTeamInvitation', 'One of your pending invitations');
export type DeclineTeamInvitationInput = InstanceType<typeof DeclineTeamInvitationInput>;
export const RevokeTeamInvitationInput = IdInput('RevokeTeamInvitation', 'A pending invitation of the active business');
export type RevokeTeamInvitationInput = InstanceType<typeof RevokeTeamInvitationInput>;
