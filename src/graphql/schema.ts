import path from 'node:path';
import { GraphQLSchema, OperationTypeNode } from 'graphql';
import { buildSchema, emitSchemaDefinitionFile } from 'type-graphql';
import { TesseraPubSub } from '../domain/events/pubsub';
import { AREAS } from '../areas';
import { PROJECT_ROOT } from '../project';
import { NodeResolver } from './shared/node.resolver';

export const SCHEMA_FILE = path.join(PROJECT_ROOT, 'schema.graphql');

/** The root types' descriptions: type-graphql has no option for them, so they are set on the built schema. */
const ROOT_DESCRIPTIONS = {
  query: "Reads, of the caller's business in the caller's mode (the test/live switch)",
  mutation: 'Writes: each takes one input and answers a payload with the object and userErrors',
  subscription: "Live changes over graphql-ws, of the subscriber's business and mode only",
} as const;

export async function buildTesseraSchema(
  pubSub: TesseraPubSub,
  emitSchemaFile: string | false = false,
): Promise<GraphQLSchema> {
  // The `node` query, then every area's resolvers (src/areas.ts).
  const resolvers = [NodeResolver, ...AREAS.flatMap((area) => area.graphql?.().resolvers ?? [])] as const;
  const schema = await buildSchema({ resolvers, pubSub, validate: false });
  for (const [operation, description] of Object.entries(ROOT_DESCRIPTIONS)) {
    const root = schema.getRootType(operation as OperationTypeNode);
    if (root) root.description = description;
  }
  if (emitSchemaFile) await emitSchemaDefinitionFile(emitSchemaFile, schema, { sortedSchema: true });
  return schema;
}
