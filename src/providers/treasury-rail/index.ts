import { defineProviderKind } from '../kind';
import type { TreasuryRail } from './port';
import { SandboxTreasuryRail } from './sandbox';

declare module '../registry' {
  interface ProviderChoice {
    'treasury-rail': { test: TreasuryRail; live: TreasuryRail | null };
  }
}

/** The treasury banking partner (end-user deposit accounts, treasury payouts): the sandbox rail in test mode, none in live yet. */
export const treasuryRailKind = defineProviderKind({
  kind: 'treasury-rail',
  missing:
    'No treasury banking partner is configured for live mode, so live treasury wallets and payouts are not available; use test credentials in the sandbox',
  create: ({ config }) => ({ test: new SandboxTreasuryRail(config.payoutSandboxSettleMs), live: null }),
});
