import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { Collection } from './collection.entities';
import { collectionJobs } from './collections.jobs';

/** The collections area: what the registries gather from it (src/areas.ts lists it). */
export const collectionsArea = defineArea<Core>({
  name: 'collections',
  entities: [Collection],
  jobs: (core) => collectionJobs(core.collections),
});
