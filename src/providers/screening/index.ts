import { defineProviderKind } from '../kind';
import { SanctionsLists } from './lists/store';
import { OfficialListsScreening } from './official-lists';
import type { SanctionsScreening } from './port';
import { SandboxScreening } from './sandbox';

declare module '../registry' {
  interface ProviderChoice {
    screening: { test: SanctionsScreening; live: SanctionsScreening | null };
  }
}

/**
 * Sanctions screening of payout recipients: the sandbox list in test mode; in live mode the
 * official lists (OFAC SDN, UN, EU) the operator loaded with `tessera sanctions load` (docs/live.md,
 * Sanctions screening), which refuses with UNPROCESSABLE while no list is loaded.
 */
export const screeningKind = defineProviderKind({
  kind: 'screening',
  missing:
    'No sanctions-screening provider is configured for live mode, so live recipients cannot be screened; use test credentials in the sandbox',
  create: ({ dataSource }) => ({
    test: new SandboxScreening(),
    live: new OfficialListsScreening(new SanctionsLists(dataSource)),
  }),
});
