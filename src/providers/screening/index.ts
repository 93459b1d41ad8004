import { defineProviderKind } from '../kind';
import type { SanctionsScreening } from './port';
import { SandboxScreening } from './sandbox';

declare module '../registry' {
  interface ProviderChoice {
    screening: { test: SanctionsScreening; live: SanctionsScreening | null };
  }
}

/** Sanctions screening of payout recipients: the sandbox list in test mode, none in live yet. */
export const screeningKind = defineProviderKind({
  kind: 'screening',
  missing:
    'No sanctions-screening provider is configured for live mode, so live recipients cannot be screened; use test credentials in the sandbox',
  create: () => ({ test: new SandboxScreening(), live: null }),
});
