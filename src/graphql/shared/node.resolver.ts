import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { GraphQLContext, nodeCaller } from './context';
import { MAX_NODES, Node, resolveNodes } from './node';

/** Relay's object identification: any object the caller may see, by its id. */
@Resolver()
export class NodeResolver {
  @Query(() => Node, {
    nullable: true,
    description: 'The object with this id, when the caller may see it (its business and mode); null otherwise',
  })
  async node(
    @Arg('id', () => ID, { description: "Any object's id, as the API answers it" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<object | null> {
    nodeCaller(context);
    return (await resolveNodes(context, [id]))[0];
  }

  @Query(() => [Node], {
    nullable: 'items',
    description: `The objects of ids, in order, each null when the caller may not see it (at most ${MAX_NODES} ids)`,
  })
  async nodes(
    @Arg('ids', () => [ID], { description: `Ids of objects of any types, at most ${MAX_NODES}` }) ids: string[],
    @Ctx() context: GraphQLContext,
  ): Promise<Array<object | null>> {
    nodeCaller(context);
    return resolveNodes(context, ids);
  }
}
