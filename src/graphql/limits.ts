import {
  DocumentNode, GraphQLError, GraphQLSchema, Kind, NoSchemaIntrospectionCustomRule, OperationDefinitionNode, ValidationRule,
  getVariableValues,
} from 'graphql';
import depthLimit from 'graphql-depth-limit';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { Config } from '../config';

/**
 * The limits every GraphQL operation is held to, over HTTP (Apollo) and over graphql-ws alike:
 * selection depth, introspection (off in production) and estimated cost.
 */

/** Validation rules on top of GraphQL's own: depth, and no introspection when it is switched off. */
export function limitRules(config: Pick<Config, 'graphqlMaxDepth' | 'graphqlIntrospection'>): ValidationRule[] {
  return [depthLimit(config.graphqlMaxDepth), ...(config.graphqlIntrospection ? [] : [NoSchemaIntrospectionCustomRule])];
}

/**
 * Refuses an operation whose estimated cost (lists cost `first` x their children) exceeds the
 * limit. Variables that do not fit their types are left to execution, which answers
 * BAD_USER_INPUT (getComplexity would throw and turn a client error into a 500).
 */
export function assertAffordable(schema: GraphQLSchema, maxCost: number, document: DocumentNode,
  variables: Record<string, unknown>, operationName?: string): void {
  const operation = document.definitions.find((definition): definition is OperationDefinitionNode =>
    definition.kind === Kind.OPERATION_DEFINITION && (!operationName || definition.name?.value === operationName));
  if (getVariableValues(schema, operation?.variableDefinitions ?? [], variables).errors) return;
  const cost = getComplexity({
    schema,
    query: document,
    operationName,
    variables,
    estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
  });
  if (cost > maxCost) {
    throw new GraphQLError(`Query cost ${cost} exceeds the maximum of ${maxCost}`, {
      extensions: { code: 'QUERY_TOO_COSTLY', cost, maxCost, http: { status: 400 } },
    });
  }
}
