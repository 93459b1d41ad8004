/**
 * What the OpenAPI documents say about each operation beyond its zod declarations: the stable
 * `operationId` a client generator names its method after, its summary and description, and the
 * tag it is listed under.
 * Each area's face module lists its operations by tag (`operations`, in
 * `src/rest/<area>/<area>.operations.ts` and `src/v1/<area>/<area>.operations.ts`); each surface
 * gathers them in the order of the areas (src/areas.ts). test/openapi.test.ts fails for a route
 * without its operation and snapshots the names, so renaming an operation is a visible change.
 */
import { withExamples } from './openapi-examples';

/**
 * An area's operations on one surface, by tag. A tag is described once, by the area that owns it;
 * another area lists its operations under that tag without a description (the sandbox helpers
 * each area serves go under the sandbox area's `Sandbox`).
 */
export type OperationsByTag = Record<string, TaggedOperations>;

export interface TaggedOperations {
  /** What the tag covers, shown beside it in the document's `tags`: given only by the area that owns the tag. */
  description?: string;
  /** `METHOD /openapi/path/{param}` → the operation. */
  operations: Record<string, Operation>;
}

export interface Operation {
  /** The operationId: camelCase, named for what it does, unique in the document. */
  id: string;
  /** One line, imperative (`Create a payout`). */
  summary: string;
  /** What it does and what a caller needs to know, a sentence or two (the docs/ page has the rest). */
  description: string;
}

/** The fields of an OpenAPI operation that the areas' tables give. */
export interface OperationNames {
  operationId: string;
  summary: string;
  description: string;
  tags: [string];
}

/**
 * A surface's operations, gathered from its areas' tables in the areas' order: the document's
 * top-level `tags` (in the order their owners describe them) and the lookup of each operation by
 * method and OpenAPI path (nothing for a route no table has). A tag described twice or never, or a
 * route named twice, is refused when the surface is built.
 */
export function surfaceOperations(areas: readonly OperationsByTag[]) {
  const tags: Array<{ name: string; description: string }> = [];
  const byRoute = new Map<string, OperationNames>();
  for (const area of areas) {
    for (const [tag, { description, operations }] of Object.entries(area)) {
      if (description !== undefined) {
        if (tags.some((known) => known.name === tag)) throw new Error(`The OpenAPI tag ${tag} is described twice`);
        tags.push({ name: tag, description });
      }
      for (const [route, { id, summary, description }] of Object.entries(operations)) {
        if (byRoute.has(route)) throw new Error(`The operation ${route} is named twice`);
        byRoute.set(route, { operationId: id, summary, description, tags: [tag] });
      }
    }
  }
  const undescribed = new Set(
    [...byRoute.values()].map(({ tags: [tag] }) => tag).filter((tag) => !tags.some((known) => known.name === tag)),
  );
  if (undescribed.size > 0) throw new Error(`No area describes the OpenAPI tag ${[...undescribed].join(', ')}`);
  return {
    tags,
    nameOf: (method: string, openApiPath: string): Partial<OperationNames> =>
      byRoute.get(`${method.toUpperCase()} ${openApiPath}`) ?? {},
  };
}

interface OpenApiObject {
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown> } & Record<string, unknown>;
}

const SCHEMA_REF = /^#\/components\/schemas\/(.+)$/;

/** The names of the component schemas `value` refers to with `$ref`, at any depth. */
function referencedSchemas(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) referencedSchemas(item, found);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const name = key === '$ref' && typeof item === 'string' ? SCHEMA_REF.exec(item)?.[1] : undefined;
      if (name) found.add(decodeURIComponent(name));
      else referencedSchemas(item, found);
    }
  }
  return found;
}

/**
 * The document with only the component schemas its operations use, directly or through another
 * component. zod's registry is global, so every surface's generator sees every named schema
 * (the `/v1` document would carry all the REST ones, and each input twin of an output schema).
 */
function withUsedComponentsOnly<T extends OpenApiObject>(document: T): T {
  const all = document.components?.schemas;
  if (!all) return document;
  const used = referencedSchemas(document.paths);
  for (let pending = [...used]; pending.length > 0;) {
    const next = [...referencedSchemas(pending.map((name) => all[name]))].filter((name) => !used.has(name));
    for (const name of next) used.add(name);
    pending = next;
  }
  const schemas = Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
  return { ...document, components: { ...document.components, schemas } };
}

/** `value` with every integer bound of ±(2^53 − 1) removed, at any depth. */
function withoutSafeIntegerBounds<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds) as T;
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(
        ([key, item]) =>
          !(key === 'minimum' && item === Number.MIN_SAFE_INTEGER) &&
          !(key === 'maximum' && item === Number.MAX_SAFE_INTEGER),
      )
      .map(([key, item]) => [key, withoutSafeIntegerBounds(item)]),
  ) as T;
}

/**
 * A surface's generated document as it is served: only the components it uses, no integer bound
 * of ±(2^53 − 1), and an example on every JSON body (src/http/openapi-examples.ts). zod writes
 * those bounds for every `.int()` (the safe-integer range, not a rule of the field); a field with a
 * real bound declares it in its zod schema (`expiryMonth` 1–12).
 */
export function finishedDocument<T extends OpenApiObject>(document: T): T {
  return withExamples(withUsedComponentsOnly(withoutSafeIntegerBounds(document)));
}

/** The version the interface document declares for the main surface (its Versioning section). */
export const INTERFACE_VERSION = '2026-04-15';

/**
 * What both documents say of where they come from: `info.version` is the version of the
 * interface the surface serves; Tessera's own release (what /healthz, `--version` and the landing
 * page show) is `info.x-tessera-version`; `servers` is the public base address (PUBLIC_BASE_URL),
 * under which each path is written whole (`/api/v1/…`, `/v1/…`).
 */
export function documentOrigin(publicBaseUrl: string, interfaceVersion: string, tesseraVersion: string) {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return {
    info: {
      version: interfaceVersion,
      'x-tessera-version': tesseraVersion,
      contact: { name: 'Tessera', url: `${base}/` },
    },
    servers: [{ url: base, description: 'This Tessera server (PUBLIC_BASE_URL)' }],
  };
}

/** `value` with every `additionalProperties: false` removed, at any depth. */
function withoutClosedObjects<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutClosedObjects) as T;
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, item]) => !(key === 'additionalProperties' && item === false))
      .map(([key, item]) => [key, withoutClosedObjects(item)]),
  ) as T;
}

type Operations = Record<string, Record<string, { responses?: unknown }>>;

/**
 * The document as a surface serves it: its answers open for additions, so a client that checks
 * answers at run time keeps working when a field is added.
 * Request bodies keep their rules. The surface checks its own answers in the test suite against
 * the generated document, where answers are closed: an undeclared field there is a mismatch.
 */
export function servedDocument<T extends OpenApiObject>(document: T): T {
  const paths = Object.fromEntries(
    Object.entries((document.paths ?? {}) as Operations).map(([path, operations]) => [
      path,
      Object.fromEntries(
        Object.entries(operations).map(([method, operation]) => [
          method,
          operation && typeof operation === 'object' && 'responses' in operation
            ? { ...operation, responses: withoutClosedObjects(operation.responses) }
            : operation,
        ]),
      ),
    ]),
  );
  const schemas = document.components?.schemas;
  return {
    ...document,
    paths,
    ...(schemas ? { components: { ...document.components, schemas: withoutClosedObjects(schemas) } } : {}),
  };
}
