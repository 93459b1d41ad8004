import { ApolloServer, ApolloServerPlugin } from '@apollo/server';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import { FastifyInstance, FastifyRequest } from 'fastify';
import { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { Core } from '../domain/core';
import { markNotStored, storesStatus } from '../http/idempotency';
import { bearerOf, originOf } from '../http/request-context';
import { assertAffordable, limitRules } from './limits';
import { GraphQLContext, graphQLContext } from './shared/context';
import { INTERNAL_SERVER_ERROR, formatGraphQLError } from './shared/errors';
import { registerGraphQLSocket } from './socket';

export const GRAPHQL_PATH = '/graphql';

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
 * server and path (src/graphql/socket.ts), both held to the same limits.
 */
export async function registerGraphQL(app: FastifyInstance, core: Core, schema: GraphQLSchema) {
  const { config } = core;
  const socket = registerGraphQLSocket(app, core, schema, GRAPHQL_PATH);

  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    // Introspection is refused by limitRules, the same rule the socket applies.
    introspection: true,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    validationRules: limitRules(config),
    formatError: formatGraphQLError,
    plugins: [
      fastifyApolloDrainPlugin(app),
      costLimitPlugin(schema, config.graphqlMaxCost),
      notStoredPlugin(),
      {
        async serverWillStart() {
          return {
            async drainServer() {
              await socket.dispose();
            },
          };
        },
      },
    ],
  });
  await apollo.start();

  const handler = fastifyApolloHandler(apollo, {
    context: async (request): Promise<WithFastifyRequest> => ({
      ...graphQLContext(core, request.tesseraContext, request.tesseraAuthError, originOf(request)),
      [FASTIFY_REQUEST]: request,
    }),
  });
  app.route({ url: GRAPHQL_PATH, method: ['GET', 'POST', 'OPTIONS'], handler });
  return apollo;
}
