import type { Command } from 'commander';
import type { Core } from './domain/core';
import type { AreaManifest, EntityClass } from './domain/shared/area';
import type { RequestContext } from './domain/shared/context';
import type { Loaders } from './graphql/shared/loaders';
import type { OperationsByTag } from './http/openapi';
import type { RouteAlias } from './rest/shared/aliases';
import type { RestApp } from './rest/surface';
import type { V1App } from './v1/surface';
import { checkoutArea } from './domain/checkout';
import { collectionsArea } from './domain/collections';
import { customersArea } from './domain/customers';
import { eventsArea } from './domain/events';
import { fraudArea } from './domain/fraud';
import { idempotencyArea } from './domain/idempotency';
import { identityArea } from './domain/identity';
import { invoicesArea } from './domain/invoices';
import { ledgerArea } from './domain/ledger';
import { paymentLinksArea } from './domain/payment-links';
import { paymentsArea } from './domain/payments';
import { providerEventsArea } from './domain/provider-events';
import { payoutsArea } from './domain/payouts';
import { reconciliationArea } from './domain/reconciliation';
import { recurringGiftsArea } from './domain/recurring-gifts';
import { sandboxArea } from './domain/sandbox';
import { sanctionsArea } from './domain/sanctions';
import { tokensArea } from './domain/tokens';
import { treasuryArea } from './domain/treasury';
import { walletsArea } from './domain/wallets';
import { webhooksArea } from './domain/webhooks';

/**
 * An area's REST module (`src/rest/<area>/index.ts`): its routes, their operations' names and tags
 * in the OpenAPI document, and the documented unprefixed aliases of some.
 */
export interface RestArea {
  routes(app: RestApp, core: Core): void;
  operations: OperationsByTag;
  aliases?: readonly RouteAlias[];
}

/** An area's GraphQL module (`src/graphql/<area>/index.ts`): its resolvers and its per-request DataLoaders. */
export interface GraphQLArea {
  resolvers: ReadonlyArray<EntityClass>;
  loaders?(core: Core, ctx: RequestContext): Partial<Loaders>;
}

/**
 * An area's `/v1` module (`src/v1/<area>/index.ts`): its routes, relative to the `/v1` prefix, and
 * their operations' names and tags in the `/v1` OpenAPI document.
 */
export interface V1Area {
  routes(app: V1App, core: Core): void;
  operations: OperationsByTag;
}

/**
 * An area's operator CLI module (`src/cli/<area>/index.ts`): its commands, declared on the program
 * (or on a command another area declared, such as identity's `business`). An action loads what it
 * needs when it runs (src/cli/shared/run.ts), so declaring the commands loads no domain service.
 */
export interface CliArea {
  commands(program: Command): void;
}

/**
 * An area: its domain manifest and its face modules. A face module loads when its surface is
 * built, never with the list: the database layer reads the list for the entities and loads no
 * face, and the operator CLI loads the `cli` modules alone.
 */
export interface Area {
  domain: AreaManifest<Core>;
  rest?: () => RestArea;
  graphql?: () => GraphQLArea;
  v1?: () => V1Area;
  cli?: () => CliArea;
}

type Face = 'rest' | 'graphql' | 'v1' | 'cli';

/** An area of src/: each face named has its module at `src/<face>/<area name>/index.ts`. */
function area(domain: AreaManifest<Core>, ...faces: Face[]): Area {
  const loaded: Area = { domain };
  for (const face of faces) {
    let module: unknown;
    // Loaded on first use (see Area); the face's folder is the area's name.
    loaded[face] = () => (module ??= require(`./${face}/${domain.name}`)) as never;
  }
  return loaded;
}

/**
 * Every area, one line each: adding an area is its folders and one line here (docs/architecture.md,
 * Where a new area puts its files). The order is the order of the REST routes, the resolvers,
 * the `/v1` routes, the OpenAPI documents' tags, the entities, the operator CLI's commands and the
 * areas' own error codes in the documented table.
 */
export const AREAS: readonly Area[] = [
  area(identityArea, 'rest', 'graphql', 'cli'),
  area(idempotencyArea),
  area(ledgerArea),
  area(walletsArea, 'rest', 'graphql', 'cli'),
  area(webhooksArea, 'rest', 'graphql', 'cli'),
  area(eventsArea, 'rest', 'graphql'),
  area(paymentsArea, 'rest', 'graphql', 'v1'),
  area(customersArea, 'rest', 'graphql'),
  area(tokensArea, 'rest'),
  area(fraudArea, 'rest', 'graphql'),
  area(checkoutArea, 'rest', 'graphql'),
  area(paymentLinksArea, 'rest', 'graphql'),
  area(invoicesArea, 'rest', 'graphql'),
  area(recurringGiftsArea, 'rest', 'graphql'),
  area(payoutsArea, 'rest', 'graphql', 'v1'),
  area(collectionsArea, 'rest', 'graphql'),
  area(sandboxArea, 'rest', 'graphql'),
  area(treasuryArea, 'rest', 'graphql'),
  area(reconciliationArea, 'graphql', 'cli'),
  area(sanctionsArea, 'graphql'),
  area(providerEventsArea),
];
