import { defineProviderKind } from '../kind';
import type { KycProvider } from './port';
import { SandboxKycProvider } from './sandbox';

declare module '../registry' {
  interface ProviderChoice {
    kyc: { test: KycProvider; live: KycProvider | null };
  }
}

/** Identity verification of treasury end-users: the sandbox provider (decided by the tester) in test mode, none in live yet. */
export const kycKind = defineProviderKind({
  kind: 'kyc',
  missing:
    'No KYC provider is configured for live mode, so live end-users cannot be verified; use test credentials in the sandbox',
  create: () => ({ test: new SandboxKycProvider(), live: null }),
});
