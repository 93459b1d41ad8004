import { defineProviderKind } from '../kind';
import { yellowCardConnection } from '../yellowcard/connection';
import { YellowCardCollectionRail } from '../yellowcard/collection-rail';
import type { CollectionRail } from './port';
import { SandboxCollectionRail } from './sandbox';

declare module '../registry' {
  interface ProviderChoice {
    'collection-rail': { test: CollectionRail; live: CollectionRail | null };
  }
}

/**
 * Collection rails (bank transfer, mobile money, EFT in): the sandbox rail in test mode; Yellow
 * Card in live mode when YELLOWCARD_API_KEY is set (docs/live.md; its webhooks are declared by the
 * payout-rail kind), none otherwise.
 */
export const collectionRailKind = defineProviderKind({
  kind: 'collection-rail',
  missing:
    'No collection rail is configured for live mode, so live collections cannot be taken; use test credentials in the sandbox',
  create: ({ config }) => ({
    test: new SandboxCollectionRail(),
    live: config.yellowcard ? new YellowCardCollectionRail(yellowCardConnection(config.yellowcard)) : null,
  }),
});
