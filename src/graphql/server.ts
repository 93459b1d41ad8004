import { ApolloServer, ApolloServerPlugin } from '@apollo/server';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import { FastifyInstance, FastifyRequest } from 'fastify';
import {
  DocumentNode, GraphQLError, GraphQLFormattedError, GraphQLSchema, Kind, OperationDefinitionNode, getVariableValues, parse, specifiedRules, validate,
} from 'graphql';
import depthLimit from 'graphql-depth-limit';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { Core } from '../domain/core';
import { markNotStored, storesStatus } from '../http/idempotency';
import { bearerOf } from '../http/request-context';
import { GraphQLContext, graphQLContext } from './shared/context';
import { INTERNAL_SERVER_ERROR, formatGraphQLError } from './shared/errors';

export const GRAPHQL_PATH = '/graphql';

/**
 * Refuses an operation whose estimated cost (lists cost `first` x their children) exceeds the
 * limit. Variables that do not fit their types are left to execution, which answers
 * BAD_USER_INPUT (getComplexity would throw and turn a client error into a 500).
 */
function assertAffordable(schema: GraphQLSchema, maxCost: number, document: DocumentNode,
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

function costLimitPlugin(schema: GraphQLSchema, maxCost: number): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          assertAffordable(schema, maxCost, document, request.variables ?? {}, request.operationName ?? undefined);
        },
      };
    },
  };
}

/** Apollo hands plugins a shallow copy of the context, which keeps this (own, enumerable) property. */
const FASTIFY_REQUEST = Symbol('fastifyRequest');
type WithFastifyRequest = GraphQLContext & { [FASTIFY_REQUEST]?: FastifyRequest };

/**
 * GraphQL reports failures inside a 200 response; tell the idempotency layer about those REST would
 * not store (an unexpected failure, a conflict such as a request still in progress, a rate limit),
 * so they are not replayed for the same `Idempotency-Key`.
 */
function notStoredPlugin(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, response }) {
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          const request = (contextValue as WithFastifyRequest)[FASTIFY_REQUEST];
          const notStored = (error: GraphQLFormattedError) => error.extensions?.code === INTERNAL_SERVER_ERROR
            || (typeof error.extensions?.statusCode === 'number' && !storesStatus(error.extensions.statusCode));
          if (request && errors?.some(notStored)) markNotStored(request);
        },
      };
    },
  };
}

/**
 * Apollo Server on Fastify for queries and mutations at /graphql, and graphql-ws on the same
 * server and path for subscriptions (authenticated through `connectionParams`).
 */
export async function registerGraphQL(app: FastifyInstance, core: Core, schema: GraphQLSchema) {
  const { config } = core;
  const wsServer = new WebSocketServer({ server: app.server, path: GRAPHQL_PATH });
  /** Authenticates a socket from its connectionParams; null when refused. */
  const authenticateSocket = async (params: Record<string, unknown>) => {
    const text = (name: string) => (typeof params[name] === 'string' ? (params[name] as string) : null);
    try {
      const ctx = await core.identity.authenticate(core.anonymousContext(), {
        apiKey: text('apiKey') ?? text('x-api-key'),
        bearerToken: bearerOf(text('authorization') ?? text('Authorization')) ?? text('token'),
        businessIdHeader: text('businessId') ?? text('x-service-business-id'),
        modeHeader: text('mode') ?? text('x-service-mode'),
      });
      return ctx.businessId ? ctx : null;
    } catch {
      return null;
    }
  };

  const wsCleanup = useServer<Record<string, unknown>, { gql?: GraphQLContext; recheck?: NodeJS.Timeout }>(
    {
      schema,
      onConnect: async (socket) => {
        const params = socket.connectionParams ?? {};
        const ctx = await authenticateSocket(params);
        if (!ctx) return false;
        socket.extra.gql = graphQLContext(core, ctx, null, null);
        // A subscription lives only as long as its credential: a regenerated key, an expired
        // token or a removed membership closes the socket at the next check.
        socket.extra.recheck = setInterval(async () => {
          const still = await authenticateSocket(params);
          if (!still || still.businessId !== ctx.businessId || still.mode !== ctx.mode) {
            clearInterval(socket.extra.recheck);
            socket.extra.socket.close(4403, 'Forbidden: credential no longer valid');
          }
        }, config.subscriptionRecheckMs);
        socket.extra.recheck.unref();
        return true;
      },
      onDisconnect: (socket) => clearInterval(socket.extra.recheck),
      onClose: (socket) => clearInterval(socket.extra.recheck),
      onSubscribe: (socket, _id, payload) => {
        let document;
        try {
          document = parse(payload.query);
        } catch (error) {
          return [error as GraphQLError];
        }
        const errors = validate(schema, document, [...specifiedRules, depthLimit(config.graphqlMaxDepth)]);
        if (errors.length > 0) return errors;
        try {
          assertAffordable(schema, config.graphqlMaxCost, document, payload.variables ?? {}, payload.operationName ?? undefined);
        } catch (error) {
          return [error as GraphQLError];
        }
        return {
          schema,
          document,
          variableValues: payload.variables ?? undefined,
          operationName: payload.operationName ?? undefined,
          contextValue: socket.extra.gql!,
        };
      },
    },
    wsServer,
  );

  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    introspection: config.graphqlIntrospection,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    validationRules: [depthLimit(config.graphqlMaxDepth)],
    formatError: formatGraphQLError,
    plugins: [
      fastifyApolloDrainPlugin(app),
      costLimitPlugin(schema, config.graphqlMaxCost),
      notStoredPlugin(),
      {
        async serverWillStart() {
          return {
            async drainServer() {
              await wsCleanup.dispose();
              await new Promise<void>((resolve) => wsServer.close(() => resolve()));
            },
          };
        },
      },
    ],
  });
  await apollo.start();

  const handler = fastifyApolloHandler(apollo, {
    context: async (request): Promise<WithFastifyRequest> => ({
      ...graphQLContext(core, request.tesseraContext, request.tesseraAuthError, request.id),
      [FASTIFY_REQUEST]: request,
    }),
  });
  app.route({ url: GRAPHQL_PATH, method: ['GET', 'POST', 'OPTIONS'], handler });
  return apollo;
}
