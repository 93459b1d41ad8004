import type { ApolloClient, OperationVariables, TypedDocumentNode } from '@apollo/client';
import type { Params } from 'react-router';

/** A query and its variables, exactly as a screen's `useQuery` will ask for them. */
export interface ScreenQuery {
  query: TypedDocumentNode<unknown, OperationVariables>;
  variables?: OperationVariables;
}

/**
 * What a screen module may export as `prefetch`: its first query for the route's params, sent as the
 * route is entered, while the frame's own query and the screen's code are still on their way.
 */
export type ScreenPrefetch = (params: Params) => ScreenQuery;

/** A typed `ScreenQuery`: the variables are checked against the document's. */
export function screenQuery<TData, TVariables extends OperationVariables>(
  query: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
): ScreenQuery {
  return { query: query as TypedDocumentNode<unknown, OperationVariables>, variables };
}

/**
 * Sends the query now. The component's `useQuery` of the same document and variables then joins the
 * request in flight (Apollo Client deduplicates identical operations) or reads its answer from the
 * cache; an error reaches the component the same way, which shows it with its retry.
 */
export function prefetch(apollo: ApolloClient, { query, variables }: ScreenQuery): void {
  apollo.query({ query, variables, fetchPolicy: 'network-only' }).catch(() => undefined);
}
