import { Payload } from '../shared/payload';
import { TreasuryUserErrors } from './treasury.errors';
import {
  StartTreasuryKycResult,
  TreasuryDeposit,
  TreasuryEndUser,
  TreasuryKycCheck,
  TreasuryPayout,
  TreasuryWallet,
} from './treasury.types';

export const CreateTreasuryEndUserPayload = Payload(
  'CreateTreasuryEndUser',
  'treasuryEndUser',
  () => TreasuryEndUser,
  TreasuryUserErrors,
);
export type CreateTreasuryEndUserPayload = InstanceType<typeof CreateTreasuryEndUserPayload>;
export const StartTreasuryKycPayload = Payload(
  'StartTreasuryKyc',
  'kycStart',
  () => StartTreasuryKycResult,
  TreasuryUserErrors,
);
export type StartTreasuryKycPayload = InstanceType<typeof StartTreasuryKycPayload>;
export const ApproveSandboxTreasuryKycPayload = Payload(
  'ApproveSandboxTreasuryKyc',
  'treasuryKycCheck',
  () => TreasuryKycCheck,
  TreasuryUserErrors,
);
export type ApproveSandboxTreasuryKycPayload = InstanceType<typeof ApproveSandboxTreasuryKycPayload>;
export const RejectSandboxTreasuryKycPayload = Payload(
  'RejectSandboxTreasuryKyc',
  'treasuryKycCheck',
  () => TreasuryKycCheck,
  TreasuryUserErrors,
);
export type RejectSandboxTreasuryKycPayload = InstanceType<typeof RejectSandboxTreasuryKycPayload>;
export const CreateTreasuryWalletPayload = Payload(
  'CreateTreasuryWallet',
  'treasuryWallet',
  () => TreasuryWallet,
  TreasuryUserErrors,
);
export type CreateTreasuryWalletPayload = InstanceType<typeof CreateTreasuryWalletPayload>;
export const DepositSandboxTreasuryWalletPayload = Payload(
  'DepositSandboxTreasuryWallet',
  'treasuryDeposit',
  () => TreasuryDeposit,
  TreasuryUserErrors,
);
export type DepositSandboxTreasuryWalletPayload = InstanceType<typeof DepositSandboxTreasuryWalletPayload>;
export const CreateTreasuryPayoutPayload = Payload(
  'CreateTreasuryPayout',
  'treasuryPayout',
  () => TreasuryPayout,
  TreasuryUserErrors,
);
export type CreateTreasuryPayoutPayload = InstanceType<typeof CreateTreasuryPayoutPayload>;
export const CancelTreasuryPayoutPayload = Payload(
  'CancelTreasuryPayout',
  'treasuryPayout',
  () => TreasuryPayout,
  TreasuryUserErrors,
);
export type CancelTreasuryPayoutPayload = InstanceType<typeof CancelTreasuryPayoutPayload>;
