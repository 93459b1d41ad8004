import { ApolloServer, ApolloServerPlugin } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import { fastifyApolloDrainPlugin, fastifyApolloHandler } from '@as-integrations/fastify';
import { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { GraphQLSchema } from 'graphql';
import { Core } from '../domain/core';
import { markNotStored } from '../http/idempotency';
import { DatabaseOutage, RETRY_AFTER_SECONDS } from '../http/outage';
import { ErrorCode } from '../domain/shared/errors';
import { originOf } from '../http/request-context';
import { guardCredentialSurface } from '../http/surface';
import { prefersExplorer, registerExplorer } from './explorer';
import { limitRules, operationLimitsOf, operationLimitsPlugin } from './limits';
import { GraphQLContext, graphQLContext } from './shared/context';
import { graphQLErrorFormatter, logUnexpectedErrors, storesResult } from './shared/errors';
import { registerGraphQLSocket } from './socket';

export const GRAPHQL_PATH = '/graphql';

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
          const result = response.body.kind === 'single' ? response.body.singleResult : undefined;
          const request = (contextValue as WithFastifyRequest)[FASTIFY_REQUEST];
          if (request && result && !storesResult(result)) markNotStored(request);
        },
      };
    },
  };
}

/**
 * Logs every unexpected failure (the client only sees INTERNAL_SERVER_ERROR) at error level, on
 * the Fastify request's logger, which carries the request id.
 */
function unexpectedErrorLogPlugin(
  fallback: FastifyBaseLogger,
  outage: DatabaseOutage,
): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ contextValue, errors, operationName, request }) {
          const log = (contextValue as WithFastifyRequest)[FASTIFY_REQUEST]?.log ?? fallback;
          logUnexpectedErrors(log, errors, operationName ?? request.operationName ?? null, outage);
        },
      };
    },
  };
}

/**
 * An operation that failed because a service is unavailable (the database unreachable, an outside
 * provider that does not answer) answers HTTP 503 with Retry-After, as REST and `/v1` do, besides
 * the error's `extensions.code` SERVICE_UNAVAILABLE.
 */
function unavailablePlugin(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          if (!errors?.some((error) => error.extensions?.code === ErrorCode.SERVICE_UNAVAILABLE)) return;
          response.http.status = 503;
          response.http.headers.set('retry-after', String(RETRY_AFTER_SECONDS));
        },
      };
    },
  };
}

const CACHEABLE_HEADER = /^max-age=(\d+), (public|private)$/;

/**
 * The `cache-control: no-store` Apollo's cache-control plugin puts on every answer here: no field
 * declares a cache hint, so no answer is ever cacheable. That plugin computes the policy with a
 * hook on every resolved field (which makes Apollo wrap every field's resolver: about a tenth of a
 * 50-row list's CPU), so it is disabled and its only outcome is set here, once per response. A
 * header already set that the plugin could not parse is left alone, as the plugin does.
 */
function noStorePlugin(): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          const existing = response.http.headers.get('cache-control');
          if (existing === undefined || existing === 'no-store' || CACHEABLE_HEADER.test(existing))
            response.http.headers.set('cache-control', 'no-store');
        },
      };
    },
  };
}

/** Apollo's own messages (a failing plugin, an unexpected failure outside execution) go to the server's log. */
const apolloLogger = (log: FastifyBaseLogger) => {
  const line = (level: 'debug' | 'info' | 'warn' | 'error') => (message?: unknown) =>
    message instanceof Error ? log[level]({ err: message }, 'apollo') : log[level](String(message));
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
};

/**
 * Apollo Server on Fastify for queries and mutations at /graphql, and graphql-ws on the same
 * server and path (src/graphql/socket.ts), both held to the same limits.
 */
export async function registerGraphQL(app: FastifyInstance, core: Core, schema: GraphQLSchema) {
  const limits = operationLimitsOf(core.config);
  const socket = registerGraphQLSocket(app, core, schema, GRAPHQL_PATH);

  const apollo = new ApolloServer<GraphQLContext>({
    schema,
    // Introspection is refused by limitRules, the same rule the socket applies.
    introspection: true,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: limits.hideSuggestions,
    // Besides refusing fragment bombs, this makes Apollo run `validationRules` in a second pass,
    // only once graphql's specified rules have passed: Tessera's rules never see a fragment cycle.
    maxRecursiveSelections: true,
    validationRules: limitRules(limits),
    formatError: graphQLErrorFormatter(limits),
    logger: apolloLogger(app.log),
    plugins: [
      fastifyApolloDrainPlugin(app),
      // Apollo's landing page loads its explorer from a CDN: Tessera serves its own (./explorer.ts).
      ApolloServerPluginLandingPageDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      noStorePlugin(),
      operationLimitsPlugin(schema, limits),
      notStoredPlugin(),
      unavailablePlugin(),
      unexpectedErrorLogPlugin(app.log, app.databaseOutage),
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
  const explorer = core.config.graphqlExplorer ? registerExplorer(app, GRAPHQL_PATH) : null;
  // The HTTP surface of GraphQL: its own scope and guards; the WebSocket authenticates each
  // operation itself and spends from the same budgets (src/graphql/socket.ts). A browser's GET
  // (it prefers HTML, where Apollo would show its landing page) gets the explorer when it is on.
  await app.register(async (scope) => {
    if (explorer) {
      scope.addHook('onRequest', async (request, reply) => (prefersExplorer(request) ? explorer(reply) : undefined));
    }
    guardCredentialSurface(scope, core, { keyInExtensions: true });
    scope.route({ url: GRAPHQL_PATH, method: ['GET', 'POST', 'OPTIONS'], handler });
  });
  return apollo;
}
