/**
 * What the OpenAPI documents say about each operation beyond its zod declarations: the stable
 * `operationId` a client generator names its method after, and the area (tag) it belongs to.
 * Each surface lists its operations by area in one table (src/rest/operations.ts,
 * src/v1/operations.ts); test/openapi.test.ts keeps the table and the routes in step and
 * snapshots the names, so renaming an operation is a visible change.
 */

export interface OperationArea {
  /** What the area covers, shown beside the tag in the document's `tags`. */
  description: string;
  /** `METHOD /openapi/path/{param}` → its operationId (camelCase, named for what it does). */
  operations: Record<string, string>;
}

export interface OperationNames {
  operationId: string;
  tag: string;
}

/** Looks up each operation of a surface's table by method and OpenAPI path. */
export function operationNamer(areas: Record<string, OperationArea>) {
  const byRoute = new Map<string, OperationNames>();
  for (const [tag, area] of Object.entries(areas)) {
    for (const [route, operationId] of Object.entries(area.operations)) byRoute.set(route, { operationId, tag });
  }
  return (method: string, openApiPath: string): OperationNames | undefined => byRoute.get(`${method.toUpperCase()} ${openApiPath}`);
}

/** The document's top-level `tags`: one per area, in the table's order, with its description. */
export const documentTags = (areas: Record<string, OperationArea>) =>
  Object.entries(areas).map(([name, area]) => ({ name, description: area.description }));
