import { Payload } from '../shared/payload';
import { AccountUserErrors, AuthUserErrors } from './identity.errors';
import {
  BusinessSettings,
  DashboardSession,
  IssuedCredentials,
  Membership,
  NewAccount,
  PendingSignUp,
  RegeneratedApiKey,
  TeamInvitation,
} from './identity.types';

export const SignUpPayload = Payload('SignUp', 'pendingSignUp', () => PendingSignUp, AuthUserErrors);
export type SignUpPayload = InstanceType<typeof SignUpPayload>;
export const ConfirmSignUpPayload = Payload('ConfirmSignUp', 'account', () => NewAccount, AuthUserErrors);
export type ConfirmSignUpPayload = InstanceType<typeof ConfirmSignUpPayload>;
export const SignInPayload = Payload('SignIn', 'session', () => DashboardSession, AuthUserErrors);
export type SignInPayload = InstanceType<typeof SignInPayload>;

export const UpdateBusinessSettingsPayload = Payload(
  'UpdateBusinessSettings',
  'businessSettings',
  () => BusinessSettings,
  AccountUserErrors,
);
export type UpdateBusinessSettingsPayload = InstanceType<typeof UpdateBusinessSettingsPayload>;
export const CreateLiveCredentialsPayload = Payload(
  'CreateLiveCredentials',
  'credentials',
  () => IssuedCredentials,
  AccountUserErrors,
);
export type CreateLiveCredentialsPayload = InstanceType<typeof CreateLiveCredentialsPayload>;
export const RegenerateApiKeyPayload = Payload(
  'RegenerateApiKey',
  'regeneratedApiKey',
  () => RegeneratedApiKey,
  AccountUserErrors,
);
export type RegenerateApiKeyPayload = InstanceType<typeof RegenerateApiKeyPayload>;

export const ChangeTeamMemberRolePayload = Payload(
  'ChangeTeamMemberRole',
  'membership',
  () => Membership,
  AccountUserErrors,
);
export type ChangeTeamMemberRolePayload = InstanceType<typeof ChangeTeamMemberRolePayload>;
export const RemoveTeamMemberPayload = Payload('RemoveTeamMember', 'membership', () => Membership, AccountUserErrors);
export type RemoveTeamMemberPayload = InstanceType<typeof RemoveTeamMemberPayload>;
export const InviteTeamMemberPayload = Payload(
  'InviteTeamMember',
  'teamInvitation',
  () => TeamInvitation,
  AccountUserErrors,
);
export type InviteTeamMemberPayload = InstanceType<typeof InviteTeamMemberPayload>;
export const AcceptTeamInvitationPayload = Payload(
  'AcceptTeamInvitation',
  'membership',
  () => Membership,
  AccountUserErrors,
);
export type AcceptTeamInvitationPayload = InstanceType<typeof AcceptTeamInvitationPayload>;
export const DeclineTeamInvitationPayload = Payload(
  'DeclineTeamInvitation',
  'teamInvitation',
  () => TeamInvitation,
  AccountUserErrors,
);
export type DeclineTeamInvitationPayload = InstanceType<typeof DeclineTeamInvitationPayload>;
export const RevokeTeamInvitationPayload = Payload(
  'RevokeTeamInvitation',
  'teamInvitation',
  () => TeamInvitation,
  AccountUserErrors,
);
export type RevokeTeamInvitationPayload = InstanceType<typeof RevokeTeamInvitationPayload>;
