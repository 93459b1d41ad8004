import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { TREASURY_ERRORS } from './treasury.errors';
import { TreasuryEndUser, TreasuryKycCheck, TreasuryPayout, TreasuryWallet } from './treasury.entities';
import { treasuryJobs } from './treasury.jobs';
import { EndUserService } from './end-user.service';
import { KycService } from './kyc.service';
import { TreasuryWalletService } from './treasury-wallet.service';
import { TreasuryPayoutService } from './treasury-payout.service';
import { treasuryProductSettings } from './treasury.settings';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export { MAX_REASON_LENGTH, MAX_REASONS } from './kyc.service';
export type { KycPage } from './kyc.service';
export type {
  CreateEndUserCommand,
  CreateTreasuryPayoutCommand,
  CreateTreasuryWalletCommand,
  DecideKycOnPageCommand,
  EndUserFilters,
  RejectKycCommand,
  SandboxDepositCommand,
  StartKycCommand,
  TreasuryPayoutDestination,
  TreasuryPayoutFilters,
} from './treasury.commands';
export {
  EndUserStatus,
  KycLevel,
  KycStatus,
  TreasuryDestinationType,
  TreasuryEndUser,
  TreasuryKycCheck,
  TreasuryPayout,
  TreasuryPayoutStatus,
  TreasuryWallet,
  TreasuryWalletStatus,
} from './treasury.entities';
export type { TreasuryWalletView } from './treasury.entities';
export { TreasuryErrorCode } from './treasury.errors';
export {
  depositInstructionsObject,
  depositObject,
  endUserObject,
  kycObject,
  treasuryPayoutObject,
  walletObject,
} from './treasury.events';
export type {
  DepositInstructionsObject,
  DepositObject,
  EndUserObject,
  KycObject,
  TreasuryDeposit,
  TreasuryPayoutObject,
  WalletObject,
} from './treasury.events';
export type { TreasuryAccess } from './treasury.settings';
export { TreasuryTopic } from './treasury.topics';
export type { TreasuryKycChange, TreasuryPayoutChange } from './treasury.topics';

declare module '../core' {
  interface Core {
    /** Treasury (design section 10): a partner's end-users, their KYC, wallets and payouts (docs/treasury.md, Domain API). */
    treasuryEndUsers: EndUserService;
    treasuryKyc: KycService;
    treasuryWallets: TreasuryWalletService;
    treasuryPayouts: TreasuryPayoutService;
  }
}

/** The treasury area: what the registries gather from it (src/areas.ts lists it). */
export const treasuryArea = defineArea<Core>({
  name: 'treasury',
  entities: [TreasuryEndUser, TreasuryKycCheck, TreasuryWallet, TreasuryPayout],
  productSettings: treasuryProductSettings,
  services: {
    treasuryEndUsers: (core) => new EndUserService(core.events),
    treasuryKyc: (core) =>
      new KycService({ publicBaseUrl: core.config.publicBaseUrl }, core.providers, core.events, core.pubSub),
    treasuryWallets: (core) => new TreasuryWalletService(core.providers, core.ledger, core.events),
    treasuryPayouts: (core) =>
      new TreasuryPayoutService(
        core.providers,
        core.ledger,
        core.events,
        core.treasuryWallets,
        core.secretBox,
        core.pubSub,
      ),
  },
  errors: TREASURY_ERRORS,
  jobs: (core) => treasuryJobs(core.treasuryPayouts),
});
