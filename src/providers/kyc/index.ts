import { defineProviderKind } from '../kind';
import { BridgeKycProvider } from './bridge';
import type { KycProvider } from './port';
import { SandboxKycProvider } from './sandbox';

declare module '../registry' {
  interface ProviderChoice {
    kyc: { test: KycProvider; live: KycProvider | null };
  }
}

/**
 * Identity verification of treasury end-users: the sandbox provider (decided by the tester) in test
 * mode; Bridge's KYC links in live mode when BRIDGE_API_KEY is set (docs/live.md, "Bridge"), none
 * otherwise. Bridge's webhooks (decisions included) are declared once, by the treasury rail kind.
 */
export const kycKind = defineProviderKind({
  kind: 'kyc',
  missing:
    'No KYC provider is configured for live mode, so live end-users cannot be verified; use test credentials in the sandbox',
  create: ({ config }) => ({
    test: new SandboxKycProvider(),
    live: config.bridge ? new BridgeKycProvider(config.bridge) : null,
  }),
});
