import { createHash } from 'node:crypto';
import { ApolloServerPlugin } from '@apollo/server';
import {
  ASTVisitor,
  DocumentNode,
  FragmentDefinitionNode,
  GraphQLError,
  GraphQLSchema,
  Kind,
  NoSchemaIntrospectionCustomRule,
  OperationDefinitionNode,
  OperationTypeNode,
  SelectionSetNode,
  ValidationContext,
  ValidationRule,
  getVariableValues,
  specifiedRules,
  validate,
  visit,
} from 'graphql';
import {
  ComplexityEstimator,
  fieldExtensionsEstimator,
  getComplexity,
  simpleEstimator,
} from 'graphql-query-complexity';
import { Config } from '../config';
import { unsafeInputErrors } from '../wire/validation';
import { withoutSuggestions } from './shared/errors';

/**
 * The limits every GraphQL operation is held to, over HTTP (Apollo) and over graphql-ws alike:
 * validation rules (depth, introspection), then, before any resolver runs, the checks that need
 * the variables (text, mutation count, estimated cost).
 */
export interface OperationLimits {
  maxDepth: number;
  maxCost: number;
  /** Root fields (aliases included) of one mutation operation. */
  maxMutationFields: number;
  introspection: boolean;
  /** Strip "Did you mean …?" from error messages: on whenever introspection is off. */
  hideSuggestions: boolean;
}

export const operationLimitsOf = (config: Config): OperationLimits => ({
  maxDepth: config.graphqlMaxDepth,
  maxCost: config.graphqlMaxCost,
  maxMutationFields: config.graphqlMaxMutationFields,
  introspection: config.graphqlIntrospection,
  hideSuggestions: !config.graphqlIntrospection,
});

/**
 * Prices of the cost analysis. An ordinary field costs 1 and a list costs `first` times its
 * selection (declared on the field). A root field is a service call: a query or subscription root
 * field costs 10 more (at least one SQL statement), a mutation 100 more (a transaction: about 16
 * statements with its ledger postings, events and jobs). Every alias is a field of its own.
 */
export const ROOT_QUERY_FIELD_COST = 10;
export const MUTATION_FIELD_COST = 100;
/** Fields the cost analysis walks at most (it then refuses the operation): bounds its own work. */
const MAX_COSTED_NODES = 10_000;

const TOO_COSTLY = 'QUERY_TOO_COSTLY';

function tooCostly(message: string, extensions: Record<string, unknown>) {
  return new GraphQLError(message, { extensions: { code: TOO_COSTLY, ...extensions, http: { status: 400 } } });
}

function badUserInput(message: string, errors: Record<string, string[]>) {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', errors, http: { status: 400 } } });
}

/**
 * The depth of an operation: the deepest field below a root field (`{ a { b } }` is 1).
 * Introspection fields (`__schema`, `__type`) are not counted, so tools' introspection query
 * fits. Fragment depths are computed once each, and a fragment that spreads itself (which
 * graphql's own NoFragmentCyclesRule refuses) or is unknown counts as empty: never a recursion
 * without end.
 */
function operationDepth(operation: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>): number {
  const fragmentDepth = new Map<string, number | 'visiting'>();
  const depthOf = (selectionSet: SelectionSetNode): number => {
    let deepest = 0;
    for (const selection of selectionSet.selections) {
      let depth = 0;
      if (selection.kind === Kind.FIELD) {
        if (!selection.name.value.startsWith('__') && selection.selectionSet)
          depth = 1 + depthOf(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        depth = depthOf(selection.selectionSet);
      } else {
        const name = selection.name.value;
        const known = fragmentDepth.get(name);
        if (typeof known === 'number') depth = known;
        else if (known === undefined && fragments.has(name)) {
          fragmentDepth.set(name, 'visiting');
          depth = depthOf(fragments.get(name)!.selectionSet);
          fragmentDepth.set(name, depth);
        }
      }
      deepest = Math.max(deepest, depth);
    }
    return deepest;
  };
  return depthOf(operation.selectionSet);
}

const fragmentsOf = (document: DocumentNode) =>
  new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );

/** GRAPHQL_MAX_DEPTH as a validation rule ("'Name' exceeds maximum operation depth of 10"). */
export function maxDepthRule(maxDepth: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = fragmentsOf(context.getDocument());
    return {
      OperationDefinition(operation) {
        if (operationDepth(operation, fragments) > maxDepth) {
          context.reportError(
            new GraphQLError(`'${operation.name?.value ?? ''}' exceeds maximum operation depth of ${maxDepth}`, {
              nodes: [operation],
            }),
          );
        }
      },
    };
  };
}

/**
 * Tessera's validation rules on top of graphql's own: depth, and no introspection when it is
 * switched off. They run only on a document that graphql's specified rules accepted (no fragment
 * cycles, no unknown fragments or fields): Apollo runs them in a second pass because
 * `maxRecursiveSelections` is set, and `validateOperation` (WebSocket) does the same.
 */
export const limitRules = (limits: OperationLimits): ValidationRule[] => [
  maxDepthRule(limits.maxDepth),
  ...(limits.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
];

/**
 * Validates a document for the WebSocket the way Apollo does for HTTP: graphql's specified rules
 * first, Tessera's rules only once those pass.
 */
export function validateOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  limits: OperationLimits,
): readonly GraphQLError[] {
  let errors = validate(schema, document, specifiedRules);
  if (errors.length === 0) errors = validate(schema, document, limitRules(limits));
  if (!limits.hideSuggestions) return errors;
  return errors.map(
    (error) =>
      new GraphQLError(withoutSuggestions(error.message), { nodes: error.nodes, extensions: error.extensions }),
  );
}

function selectedOperation(document: DocumentNode, operationName?: string | null): OperationDefinitionNode | undefined {
  return document.definitions.find(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION && (!operationName || definition.name?.value === operationName),
  );
}

/** The root fields one operation executes: distinct response keys, through fragments, each fragment once. */
function rootResponseKeys(
  operation: OperationDefinitionNode,
  fragments: Map<string, FragmentDefinitionNode>,
): Set<string> {
  const keys = new Set<string>();
  const seen = new Set<string>();
  const collect = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) keys.add(selection.alias?.value ?? selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet);
      else if (!seen.has(selection.name.value) && fragments.has(selection.name.value)) {
        seen.add(selection.name.value);
        collect(fragments.get(selection.name.value)!.selectionSet);
      }
    }
  };
  collect(operation.selectionSet);
  return keys;
}

/**
 * The name of an inline string's place: its argument or variable, input fields and list indexes
 * (`input.items.0.description`). `nodes[i]` holds the key `path[i]` (graphql's visitor ancestors, then the parent).
 */
function literalPath(path: readonly (string | number)[], nodes: readonly unknown[]): string {
  const parts: string[] = [];
  nodes.forEach((ancestor, index) => {
    const node = ancestor as { kind?: string; name?: { value: string }; variable?: { name: { value: string } } };
    if (node.kind === Kind.ARGUMENT || node.kind === Kind.OBJECT_FIELD) parts.push(node.name!.value);
    else if (node.kind === Kind.VARIABLE_DEFINITION) parts.push(node.variable!.name.value);
    else if (Array.isArray(ancestor) && (nodes[index - 1] as { kind?: string })?.kind === Kind.LIST)
      parts.push(String(path[index]));
  });
  return parts.join('.');
}

/** Strings written inline in the document, checked like every other input (NUL, unpaired surrogates). */
function unsafeLiteralErrors(document: DocumentNode): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  visit(document, {
    StringValue(node, _key, parent, path, ancestors) {
      const found = unsafeInputErrors(node.value, literalPath(path, [...ancestors, parent]));
      for (const [field, messages] of Object.entries(found)) (errors[field] ??= []).push(...messages);
    },
  });
  return errors;
}

function costEstimators(schema: GraphQLSchema): ComplexityEstimator[] {
  const declared = fieldExtensionsEstimator();
  const ordinary = simpleEstimator({ defaultComplexity: 1 });
  const mutation = schema.getMutationType();
  const roots = new Set([schema.getQueryType(), schema.getSubscriptionType()].filter(Boolean));
  return [
    (args) => {
      const own = declared(args) ?? ordinary(args) ?? 1;
      if (args.field.name.startsWith('__')) return own;
      if (args.type === mutation) return own + MUTATION_FIELD_COST;
      return roots.has(args.type as never) ? own + ROOT_QUERY_FIELD_COST : own;
    },
  ];
}

/**
 * The checks of one operation that need its variables, made before any resolver runs, over HTTP
 * (Apollo's didResolveOperation) and the WebSocket alike, on a document that passed validation:
 * no NUL or unpaired surrogate in any string (inline or in variables) and no variable nested
 * deeper than JSON bodies may be (BAD_USER_INPUT naming the field); at most `maxMutationFields`
 * root mutation fields; the estimated cost within `maxCost` (QUERY_TOO_COSTLY). Returns the
 * refusal, or null. Variables that do not fit their types are left to execution, which answers
 * BAD_USER_INPUT for them before any resolver runs too.
 */
export function operationRefusal(
  schema: GraphQLSchema,
  limits: OperationLimits,
  document: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
  operationName?: string | null,
): GraphQLError | null {
  const unsafe = { ...unsafeLiteralErrors(document), ...unsafeInputErrors(variables ?? {}, '') };
  if (Object.keys(unsafe).length > 0) return badUserInput('Validation failed', unsafe);

  const operation = selectedOperation(document, operationName);
  if (!operation) return null;
  if (operation.operation === OperationTypeNode.MUTATION) {
    const count = rootResponseKeys(operation, fragmentsOf(document)).size;
    if (count > limits.maxMutationFields) {
      return tooCostly(
        `The operation has ${count} mutation fields; at most ${limits.maxMutationFields} are allowed in one request`,
        { mutationFields: count, maxMutationFields: limits.maxMutationFields },
      );
    }
  }
  if (getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}).errors) return null;
  let cost: number;
  try {
    cost = getComplexity({
      schema,
      query: document,
      operationName: operationName ?? undefined,
      variables: variables ?? {},
      estimators: costEstimators(schema),
      maxQueryNodes: MAX_COSTED_NODES,
    });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    return tooCostly(
      `Query cost exceeds the maximum of ${limits.maxCost}: it asks for more than ${MAX_COSTED_NODES} fields`,
      { maxCost: limits.maxCost },
    );
  }
  if (cost > limits.maxCost)
    return tooCostly(`Query cost ${cost} exceeds the maximum of ${limits.maxCost}`, { cost, maxCost: limits.maxCost });
  return null;
}

/** Operations (by name and variables) remembered as accepted, per document: enough for a dashboard's few queries and pages. */
const MAX_ACCEPTED_PER_DOCUMENT = 64;
/** Longer name-and-variables keys are not remembered: a caller must not make the server hold large variables. */
const MAX_ACCEPTANCE_KEY_LENGTH = 1024;

/**
 * The key of an operation's name and variables: their SHA-256, never the text (variables carry
 * passwords and payout PINs, which must not stay in the process's memory); null when they cannot
 * be written as JSON or are too long (never remembered).
 */
function acceptanceKey(
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
): string | null {
  try {
    const text = JSON.stringify([operationName ?? null, variables ?? {}]);
    return text.length <= MAX_ACCEPTANCE_KEY_LENGTH ? createHash('sha256').update(text).digest('base64') : null;
  } catch {
    return null;
  }
}

/**
 * `operationRefusal` for HTTP: refuses the operation after validation, before execution. Its
 * verdict depends only on the document, the operation's name and the variables, and Apollo's
 * document store hands back the same parsed document for the same query text: an accepted
 * operation sent again (a dashboard polling its list) is not analysed again (the cost analysis
 * walks the whole document: a few percent of a 50-row list's CPU). Refusals are always recomputed, so every refusal is a fresh error.
 */
export function operationLimitsPlugin<T extends object>(
  schema: GraphQLSchema,
  limits: OperationLimits,
): ApolloServerPlugin<T> {
  const acceptedByDocument = new WeakMap<DocumentNode, Set<string>>();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const key = acceptanceKey(request.operationName, request.variables);
          const accepted = acceptedByDocument.get(document);
          if (key !== null && accepted?.has(key)) return;
          const refusal = operationRefusal(schema, limits, document, request.variables, request.operationName);
          if (refusal) throw refusal;
          if (key === null) return;
          if (!accepted) acceptedByDocument.set(document, new Set([key]));
          else if (accepted.size < MAX_ACCEPTED_PER_DOCUMENT) accepted.add(key);
        },
      };
    },
  };
}
