import { ClassType, Field, ObjectType } from 'type-graphql';
import { Page } from '../../domain/shared/pagination';

@ObjectType()
export class PageInfo {
  @Field() hasNextPage: boolean;
  @Field(() => String, { nullable: true }) endCursor: string | null;
}

/** A Relay-style connection type (`edges { cursor node }`, `pageInfo`) for a node type. */
export function Connection<TNode extends object>(Node: ClassType<TNode>, name: string) {
  @ObjectType(`${name}Edge`)
  class Edge {
    @Field() cursor: string;
    @Field(() => Node) node: TNode;
  }

  @ObjectType()
  abstract class ConnectionType {
    @Field(() => [Edge]) edges: Edge[];
    @Field(() => PageInfo) pageInfo: PageInfo;
  }
  return ConnectionType;
}

export function toConnection<TItem, TNode>(page: Page<TItem>, toNode: (item: TItem) => TNode) {
  return {
    edges: page.items.map((item) => ({ cursor: page.cursorOf(item), node: toNode(item) })),
    pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
  };
}
