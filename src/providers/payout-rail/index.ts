import { defineProviderKind } from '../kind';
import { yellowCardConnection } from '../yellowcard/connection';
import { YellowCardPayoutRail } from '../yellowcard/payout-rail';
import { yellowCardReconciliation } from '../yellowcard/reconciliation';
import { yellowCardWebhooks } from '../yellowcard/yellowcard-webhooks';
import type { PayoutRail } from './port';
import { SandboxPayoutRail } from './sandbox';

declare module '../registry' {
  interface ProviderChoice {
    'payout-rail': { test: PayoutRail; live: PayoutRail | null };
  }
}

/**
 * Payout rails (bank transfer, mobile money, crypto): the sandbox rail in test mode; Yellow Card in
 * live mode when YELLOWCARD_API_KEY is set (docs/live.md), none otherwise. Yellow Card's webhooks
 * (payments and collections alike) are declared here, once, for its three kinds, and so is its
 * reconciliation source (its payments and collections against the ledger).
 */
export const payoutRailKind = defineProviderKind({
  kind: 'payout-rail',
  missing:
    'No payout rail is configured for live mode, so live payouts cannot be sent; use test credentials in the sandbox',
  create: ({ config }) => ({
    test: new SandboxPayoutRail(config.payoutSandboxSettleMs),
    live: config.yellowcard ? new YellowCardPayoutRail(yellowCardConnection(config.yellowcard)) : null,
  }),
  webhooks: ({ config }) => (config.yellowcard ? [yellowCardWebhooks(config.yellowcard)] : []),
  // The live rail's, when it is Yellow Card (the sandbox rail keeps no balance).
  reconciliation: ({ live }) =>
    live instanceof YellowCardPayoutRail ? [yellowCardReconciliation(live.connection)] : [],
});
