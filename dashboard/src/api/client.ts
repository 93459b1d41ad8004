import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { ErrorLink } from '@apollo/client/link/error';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { OperationTypeNode } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import type { Session } from '../session/session';
import { createPrefetchLink } from './prefetch';

/** The GraphQL endpoint of the server that serves the dashboard (the same origin: no CORS, no other host). */
const HTTP_URL = '/graphql';
const wsUrl = () => `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/graphql`;

export interface DashboardClient {
  apollo: ApolloClient;
  /** Closes the subscription socket (a client is made per session, business and mode). */
  dispose(): void;
}

/**
 * The Apollo Client of one signed-in context: the JWT, the active business and the mode go in every
 * request's headers (`Authorization`, `X-Service-Business-Id`, `X-Service-Mode`: docs/graphql-api.md,
 * Authentication) and in the subscription socket's `connectionParams`, which fix the socket's business
 * and mode for its life; so switching business or mode makes a new client, with an empty cache.
 * An UNAUTHENTICATED answer (the JWT expired or was refused) ends the session.
 */
export function createDashboardClient(session: Session, onUnauthenticated: () => void): DashboardClient {
  const headers: Record<string, string> = {
    authorization: `Bearer ${session.token}`,
    'x-service-mode': session.mode,
  };
  if (session.businessId) headers['x-service-business-id'] = session.businessId;

  const socket: Client = createClient({
    url: wsUrl(),
    lazy: true,
    connectionParams: {
      authorization: headers.authorization,
      mode: session.mode,
      ...(session.businessId ? { businessId: session.businessId } : {}),
    },
    // The server closes a socket with 4403 when access changes (a new role, a regenerated key, the
    // JWT's expiry): reconnect, and let the queries on screen catch up with what the socket missed.
    shouldRetry: () => true,
    retryAttempts: Number.POSITIVE_INFINITY,
    on: {
      connected: (_socket, _payload, wasRetry) => {
        if (wasRetry) void apollo.refetchQueries({ include: 'active' });
      },
    },
  });

  const errors = new ErrorLink(({ error }) => {
    if (CombinedGraphQLErrors.is(error) && error.errors.some((e) => e.extensions?.code === 'UNAUTHENTICATED')) {
      onUnauthenticated();
    }
  });
  const transport = ApolloLink.split(
    ({ operationType }) => operationType === OperationTypeNode.SUBSCRIPTION,
    new GraphQLWsLink(socket),
    new HttpLink({ uri: HTTP_URL, headers }),
  );

  const apollo = new ApolloClient({
    link: ApolloLink.from([errors, createPrefetchLink(), transport]),
    cache: new InMemoryCache({
      typePolicies: {
        // Types without an id of their own: kept inside their parent.
        Money: { keyFields: false },
        PageInfo: { keyFields: false },
      },
    }),
    defaultOptions: { watchQuery: { fetchPolicy: 'cache-and-network' } },
  });
  return {
    apollo,
    // graphql-ws's dispose waits for a connection under way: one that was waiting to retry (the server
    // had closed the socket: a new role, a regenerated key) is then refused with a plain object,
    // { code: 1000, reason: 'All Subscriptions Gone' }, as every subscription went with the old client.
    // There is nothing left to close; unhandled, it was an uncaught error in the page (a switch of
    // business during the wait: test/dashboard-team.browser.test.ts).
    dispose: () => void Promise.resolve(socket.dispose()).catch(() => undefined),
  };
}

/** A client with no credential, for sign-up and sign-in (no socket). */
export function createAnonymousClient(): ApolloClient {
  return new ApolloClient({ link: new HttpLink({ uri: HTTP_URL }), cache: new InMemoryCache() });
}
