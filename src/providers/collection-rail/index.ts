import { defineProviderKind } from '../kind';
import type { CollectionRail } from './port';
import { SandboxCollectionRail } from './sandbox';

declare module '../registry' {
  interface ProviderChoice {
    'collection-rail': { test: CollectionRail; live: CollectionRail | null };
  }
}

/** Collection rails (bank transfer, mobile money, EFT in): the sandbox rail in test mode, none in live yet. */
export const collectionRailKind = defineProviderKind({
  kind: 'collection-rail',
  missing:
    'No collection rail is configured for live mode, so live collections cannot be taken; use test credentials in the sandbox',
  create: () => ({ test: new SandboxCollectionRail(), live: null }),
});
