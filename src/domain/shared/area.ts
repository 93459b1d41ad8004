import type { MigrationInterface } from 'typeorm';
import type { AreaJobs } from './jobs';

/** A TypeORM entity class. */
export type EntityClass = abstract new (...args: never[]) => object;

/**
 * One area of the domain as the rest of the program sees it (`src/domain/<area>/index.ts`): what
 * the registries gather from it. `Core` is a parameter, so shared code names no area; an area's
 * manifest passes the composition root's type (`import type`, never a runtime import of core.ts).
 */
export interface AreaManifest<Core = never> {
  /** The area's word, as its folders spell it (`payouts`: src/domain/payouts, src/rest/payouts, …). */
  name: string;
  /** Its TypeORM entities (src/db/entities.ts gathers them). */
  entities: ReadonlyArray<EntityClass>;
  /**
   * Migrations the area brings with it. The history in `migrations/` predates the manifests and its
   * early files span areas, so it stays one folder; TypeORM runs the union in timestamp order.
   */
  migrations?: ReadonlyArray<new () => MigrationInterface>;
  /** Its job catalog (tasks and cron), built from the services it needs (src/jobs/worker.ts gathers them). */
  jobs?(core: Core): AreaJobs;
}

/** Declares an area; typed against the composition root's `Core` where the area builds jobs. */
export const defineArea = <Core = never>(manifest: AreaManifest<Core>): AreaManifest<Core> => manifest;
