import { ApolloServer, ApolloServerPlugin } from '@apollo/server';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import { FastifyInstance, FastifyRequest } from 'fastify';
import { GraphQLError, GraphQLSchema, getVariableValues, parse, specifiedRules, validate } from 'graphql';
import depthLimit from 'graphql-depth-limit';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { Core } from '../domain/core';
import { markServerFailure } from '../http/idempotency';
import { bearerOf } from '../http/request-context';
import { GraphQLContext, graphQLContext } from './shared/context';
import { INTERNAL_SERVER_ERROR, formatGraphQLError } from './shared/errors';

export const GRAPHQL_PATH = '/graphql';

function costLimitPlugin(schema: GraphQLSchema, maxCost: number): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operation }) {
          // getComplexity would throw on variables that do not fit their types, turning a client
          // error into a 500; execution refuses them (BAD_USER_INPUT, 400) before anything runs.
          const coerced = getVariableValues(schema, operation?.variableDefinitions ?? [], request.variables ?? {});
          if (coerced.errors) return;
          const cost = getComplexity({
            schema,
            query: document,
            operationName: request.operationName ?? undefined,
            variables: request.variables ?? {},
            estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
          });
          if (cost > maxCost) {
            throw new GraphQLError(`Query cost ${cost} exceeds the maximum of ${maxCost}`, {
              extensions: { code: 'QUERY_TOO_COSTLY', cost, maxCost, http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}

/** Apollo hands plugins a shallow copy of the context, which keeps this (own, enumerable) property. */
const FASTIFY_REQUEST = Symbol('fastifyRequest');
type WithFastifyRequest = GraphQLContext & { [FASTIFY_REQUEST]?: FastifyRequest };

/**
 * GraphQL reports an unexpected failure inside a 200 response; tell the idempotency layer, so the
 * failure is not stored and replayed for the same `Idempotency-Key`.
 */
function serverFailurePlugin(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, response }) {
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          const request = (contextValue as WithFastifyRequest)[FASTIFY_REQUEST];
          if (request && errors?.some((error) => error.extensions?.code === INTERNAL_SERVER_ERROR)) {
            markServerFailure(request);
          }
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
  const wsCleanup = useServer<Record<string, unknown>, { gql?: GraphQLContext }>(
    {
      schema,
      onConnect: async (socket) => {
        const params = socket.connectionParams ?? {};
        const text = (name: string) => (typeof params[name] === 'string' ? (params[name] as string) : null);
        try {
          const ctx = await core.identity.authenticate(core.anonymousContext(), {
            apiKey: text('apiKey') ?? text('x-api-key'),
            bearerToken: bearerOf(text('authorization') ?? text('Authorization')) ?? text('token'),
            businessIdHeader: text('businessId') ?? text('x-service-business-id'),
            modeHeader: text('mode') ?? text('x-service-mode'),
          });
          if (!ctx.businessId) return false;
          socket.extra.gql = graphQLContext(core, ctx, null, null);
          return true;
        } catch {
          return false;
        }
      },
      onSubscribe: (socket, _id, payload) => {
        let document;
        try {
          document = parse(payload.query);
        } catch (error) {
          return [error as GraphQLError];
        }
        const errors = validate(schema, document, [...specifiedRules, depthLimit(config.graphqlMaxDepth)]);
        if (errors.length > 0) return errors;
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
      serverFailurePlugin(),
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
