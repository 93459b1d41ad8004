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
