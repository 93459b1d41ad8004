import { ApolloServer, ApolloServerPlugin } from '@apollo/server';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import { FastifyInstance } from 'fastify';
import { GraphQLError, GraphQLSchema, parse, specifiedRules, validate } from 'graphql';
import depthLimit from 'graphql-depth-limit';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { Core } from '../domain/core';
import { bearerOf } from '../http/request-context';
import { GraphQLContext, graphQLContext } from './shared/context';
import { formatGraphQLError } from './shared/errors';

export const GRAPHQL_PATH = '/graphql';

function costLimitPlugin(schema: GraphQLSchema, maxCost: number): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
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
    context: async (request) => graphQLContext(core, request.tesseraContext, request.tesseraAuthError, request.id),
  });
  app.route({ url: GRAPHQL_PATH, method: ['GET', 'POST', 'OPTIONS'], handler });
  return apollo;
}
