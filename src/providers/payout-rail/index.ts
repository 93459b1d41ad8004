import { defineProviderKind } from '../kind';
import type { PayoutRail } from './port';
import { SandboxPayoutRail } from './sandbox';

declare module '../registry' {
  interface ProviderChoice {
    'payout-rail': { test: PayoutRail; live: PayoutRail | null };
  }
}

/** Payout rails (bank transfer, mobile money, crypto): the sandbox rail in test mode, none in live yet. */
export const payoutRailKind = defineProviderKind({
  kind: 'payout-rail',
  missing:
    'No payout rail is configured for live mode, so live payouts cannot be sent; use test credentials in the sandbox',
  create: ({ config }) => ({ test: new SandboxPayoutRail(config.payoutSandboxSettleMs), live: null }),
});
