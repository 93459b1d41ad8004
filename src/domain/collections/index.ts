import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { Collection } from './collection.entities';
import { collectionJobs } from './collections.jobs';
import { CollectionService } from './collection.service';
import { CollectionSettlementService } from './collection-settlement.service';
import { collectionsSubscriptions } from './collections.subscriptions';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export type {
  CollectionFilters,
  CreateCollectionCommand,
  PayCollectionCommand,
  StartSessionCollectionCommand,
} from './collection.commands';
export { Collection, CollectionRailKind, CollectionSource, CollectionStatus } from './collection.entities';
export type { CollectionInstructions } from './collection.entities';
export type { CollectionPage, SessionRail } from './collection.service';
export { collectionObject } from './collections.events';
export type { CollectionObject } from './collections.events';
export { SETTLEMENT_CURRENCY } from './collections.settings';
export { CollectionTopic } from './collections.topics';
export type { CollectionChange } from './collections.topics';

declare module '../core' {
  interface Core {
    /** Collections over local rails (design section 9): channels, collections, the rail's reports, USDC settlement. */
    collections: CollectionService;
  }
}

/** The collections area: what the registries gather from it (src/areas.ts lists it). */
export const collectionsArea = defineArea<Core>({
  name: 'collections',
  entities: [Collection],
  services: {
    collections: (core) =>
      new CollectionService(
        { publicBaseUrl: core.config.publicBaseUrl },
        core.providers,
        core.ledger,
        core.events,
        new CollectionSettlementService(core.providers, core.ledger),
        core.checkout,
        core.sandboxClock,
        core.pubSub,
      ),
  },
  subscriptions: collectionsSubscriptions,
  jobs: (core) => collectionJobs(core.collections),
});
