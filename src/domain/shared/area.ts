import type { MigrationInterface } from 'typeorm';
import type { AnySubscription } from './domain-events';
import type { ErrorCodeTable } from './errors';
import type { AreaJobs } from './jobs';

/** A TypeORM entity class. */
export type EntityClass = abstract new (...args: never[]) => object;

/**
 * What one area hands another through the composition root, by name (identity's `productSettings`:
 * each product's business settings). Empty here so that shared/ names no area: the area that
 * gathers a contribution declares its key by module augmentation, beside the type it gathers:
 *
 *   declare module '../shared/area' {
 *     interface AreaContributions { productSettings?: ProductSettings<OperatorBusinessUpdate> }
 *   }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AreaContributions {}

/**
 * An area's services, by their name on the composition root's `Core`: each is built from the
 * others it names on the `core` it is given (its declared dependencies), once, in whatever order
 * those dependencies need (src/domain/core.ts).
 */
export type ServiceFactories<Core> = { readonly [Name in keyof Core]?: (core: Core) => Core[Name] };

/**
 * One area of the domain as the rest of the program sees it (`src/domain/<area>/index.ts`): what
 * the registries gather from it. `Core` is a parameter, so shared code names no area; an area's
 * manifest passes the composition root's type (`import type`, never a runtime import of core.ts).
 */
export interface AreaManifest<Core = never> extends AreaContributions {
  /** The area's word, as its folders spell it (`payouts`: src/domain/payouts, src/rest/payouts, …). */
  name: string;
  /** Its TypeORM entities (src/db/entities.ts gathers them). */
  entities: ReadonlyArray<EntityClass>;
  /**
   * Migrations the area brings with it. The history in `migrations/` predates the manifests and its
   * early files span areas, so it stays one folder; TypeORM runs the union in timestamp order.
   */
  migrations?: ReadonlyArray<new () => MigrationInterface>;
  /**
   * Its services (src/domain/core.ts builds them). Their names and types are the area's augmentation
   * of `Core` (`declare module '../core' { interface Core { … } }`, in the area's index.ts).
   */
  services?: ServiceFactories<Core>;
  /**
   * What it hears on the domain event bus (its `<area>.subscriptions.ts`), given the built services.
   * The bus tells subscribers of one event in the order of the areas in src/areas.ts.
   */
  subscriptions?(core: Core): readonly AnySubscription[];
  /**
   * Its own error codes, each with its meaning and kind (`<area>.errors.ts`, which also adds them to
   * `ErrorCode` by module augmentation); the generic codes are src/domain/shared/errors.ts's. The
   * faces gather them in the list's order: the GraphQL userError enums' descriptions
   * (src/graphql/shared/payload.ts) and each code's HTTP status by its kind (src/http/status.ts).
   */
  errors?: ErrorCodeTable;
  /** Its job catalog (tasks and cron), built from the services it needs (src/jobs/worker.ts gathers them). */
  jobs?(core: Core): AreaJobs;
}

/** Declares an area; typed against the composition root's `Core` where the area builds services or jobs. */
export const defineArea = <Core = never>(manifest: AreaManifest<Core>): AreaManifest<Core> => manifest;
