import { ClassType, Field, ObjectType } from 'type-graphql';
import { ListPage, PageQuery } from '../../domain/shared/pagination';

@ObjectType({ description: "Where a page sits in its list (Relay's PageInfo); pages go forward with first and after" })
export class PageInfo {
  @Field({ description: 'Whether more edges follow this page (ask again with after: endCursor)' }) hasNextPage: boolean;
  @Field({ description: 'Whether edges come before this page: true when it was asked for after a cursor' })
  hasPreviousPage: boolean;
  @Field(() => String, { nullable: true, description: "The first edge's cursor (null for an empty page)" })
  startCursor: string | null;
  @Field(() => String, { nullable: true, description: "The last edge's cursor (null for an empty page)" }) endCursor:
    string | null;
}

/** A Relay-style connection type (`edges { cursor node }`, `pageInfo`) for a node type. */
export function Connection<TNode extends object>(Node: ClassType<TNode>, name: string) {
  @ObjectType(`${name}Edge`, { description: `One ${name} of a page, with its cursor` })
  class Edge {
    @Field({ description: 'Where this edge sits: pass it as after to answer the edges that follow it' }) cursor: string;
    @Field(() => Node, { description: `The ${name}` }) node: TNode;
  }

  @ObjectType()
  abstract class ConnectionType {
    @Field(() => [Edge], { description: "The page, in the list's order" }) edges: Edge[];
    @Field(() => PageInfo, { description: 'Where the page sits in the list' }) pageInfo: PageInfo;
  }
  return ConnectionType;
}

export function toConnection<TItem, TNode>(page: ListPage<TItem>, toNode: (item: TItem) => TNode) {
  const edges = page.items.map((item) => ({ cursor: page.cursorOf(item), node: toNode(item) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage ?? false,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: page.endCursor,
    },
  };
}

/** The options of a connection's `first` argument: `@Arg('first', () => Int, FIRST_ARG)`. */
export const FIRST_ARG = { nullable: true, description: 'How many edges to answer: 1 to 100, default 20' } as const;

/** The options of a connection's `after` argument: `@Arg('after', () => String, AFTER_ARG)`. */
export const AFTER_ARG = {
  nullable: true,
  description: "Answer the edges after this cursor (the previous page's pageInfo.endCursor)",
} as const;

/** A keyset page of a connection's `first` and `after` arguments. */
export const keysetPage = (first?: number, after?: string): PageQuery => ({
  kind: 'keyset',
  first: first ?? null,
  after: after ?? null,
});

/**
 * A connection's filters without the ones given as null: GraphQL's explicit `null` (what a client
 * sends for "any") is the filter left out, not a value the face's zod schema must refuse.
 */
export const filtersGiven = <T extends object>(filters: T | null | undefined) =>
  Object.fromEntries(Object.entries(filters ?? {}).filter(([, value]) => value !== null)) as {
    [K in keyof T]?: Exclude<T[K], null>;
  };

/** A connection costs its page size (default 20) times its selection (src/graphql/limits.ts). */
export const perRow = ({ args, childComplexity }: { args: { first?: number | null }; childComplexity: number }) =>
  (args.first ?? 20) * childComplexity;
