import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { TreasuryEndUser, TreasuryKycCheck, TreasuryPayout, TreasuryWallet } from './treasury.entities';
import { treasuryJobs } from './treasury.jobs';

/** The treasury area: what the registries gather from it (src/areas.ts lists it). */
export const treasuryArea = defineArea<Core>({
  name: 'treasury',
  entities: [TreasuryEndUser, TreasuryKycCheck, TreasuryWallet, TreasuryPayout],
  jobs: (core) => treasuryJobs(core.treasuryPayouts),
});
