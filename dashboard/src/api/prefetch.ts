import { ApolloLink, type ApolloClient, type OperationVariables, type TypedDocumentNode } from '@apollo/client';
import { canonicalStringify, print } from '@apollo/client/utilities';
import type { Params } from 'react-router';
import { shareReplay, type Observable } from 'rxjs';

/** A query and its variables, exactly as a screen's `useQuery` will ask for them. */
export interface ScreenQuery {
  query: TypedDocumentNode<unknown, OperationVariables>;
  variables?: OperationVariables;
}

/**
 * What a screen module may export as `prefetch`: its first queries for the route's params (those its
 * sections send as soon as it is drawn, with exactly their starting variables), sent as the route is
 * entered, while the frame's own query is still on its way.
 */
export type ScreenPrefetch = (params: Params) => ScreenQuery | ScreenQuery[];

/** A typed `ScreenQuery`: the variables are checked against the document's. */
export function screenQuery<TData, TVariables extends OperationVariables>(
  query: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
): ScreenQuery {
  return { query: query as TypedDocumentNode<unknown, OperationVariables>, variables };
}

/** How long a prefetched answer waits for its screen (a screen left before it asked never does). */
const KEPT_MS = 10_000;
const PREFETCH = 'tessera.prefetch';
const keyOf = (operation: ApolloLink.Operation) =>
  `${print(operation.query)}\n${canonicalStringify(operation.variables)}`;

/**
 * Sends a prefetched query, and gives its answer (in flight or arrived) to the first identical
 * query that follows, the screen's own `useQuery`, instead of sending that one too: one request per
 * query, whichever comes first, the screen's render or the answer. An error reaches the screen the
 * same way, which shows it with its retry (a new request). One per client: an answer never crosses
 * to another business or mode.
 */
export function createPrefetchLink(): ApolloLink {
  const prefetched = new Map<string, Observable<ApolloLink.Result>>();
  return new ApolloLink((operation, forward) => {
    const key = keyOf(operation);
    if (operation.getContext()[PREFETCH]) {
      const answer = forward(operation).pipe(shareReplay(1));
      prefetched.set(key, answer);
      setTimeout(() => prefetched.get(key) === answer && prefetched.delete(key), KEPT_MS);
      return answer;
    }
    const answer = prefetched.get(key);
    if (!answer) return forward(operation);
    prefetched.delete(key);
    return answer;
  });
}

/** Sends the query now (through the client's prefetch link, past Apollo Client's own deduplication, which the screen's query would join). */
export function prefetch(apollo: ApolloClient, { query, variables }: ScreenQuery): void {
  apollo
    .query({
      query,
      variables,
      fetchPolicy: 'no-cache',
      context: { [PREFETCH]: true, queryDeduplication: false },
    })
    .catch(() => undefined);
}
