import { defineProviderKind } from '../kind';
import { BridgeTreasuryRail } from './bridge';
import { bridgeReconciliation } from './bridge-reconciliation';
import { bridgeWebhooks } from './bridge-webhooks';
import type { TreasuryRail } from './port';
import { SandboxTreasuryRail } from './sandbox';

declare module '../registry' {
  interface ProviderChoice {
    'treasury-rail': { test: TreasuryRail; live: TreasuryRail | null };
  }
}

/**
 * The treasury banking partner (end-user deposit accounts, treasury payouts): the sandbox rail in
 * test mode; Bridge in live mode when BRIDGE_API_KEY is set (docs/live.md, "Bridge"), none
 * otherwise. Bridge's webhooks are declared here, once, with the handlers of all its events (KYC,
 * deposits, transfers), and so is its reconciliation source (its transfers, deposits and drains against the ledger).
 */
export const treasuryRailKind = defineProviderKind({
  kind: 'treasury-rail',
  missing:
    'No treasury banking partner is configured for live mode, so live treasury wallets and payouts are not available; use test credentials in the sandbox',
  create: ({ config }) => ({
    test: new SandboxTreasuryRail(config.payoutSandboxSettleMs),
    live: config.bridge ? new BridgeTreasuryRail(config.bridge) : null,
  }),
  webhooks: ({ config }) => (config.bridge ? [bridgeWebhooks(config.bridge)] : []),
  // Bridge's completed transfers, deposits and drains against the settlements and credits (the sandbox keeps no balance).
  reconciliation: ({ live }) => (live instanceof BridgeTreasuryRail ? [bridgeReconciliation(live.client)] : []),
});
