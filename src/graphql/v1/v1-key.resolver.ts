import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Mode } from '../../domain/identity/identity.entities';
import { GraphQLContext, caller } from '../shared/context';
import { IssuedV1ApiKey, V1ApiKey } from './v1-key.types';

/** The keys of the alternate surface /v1 (design section 11), issued by an OWNER of a verified business. */
@Resolver()
export class V1KeyResolver {
  @Query(() => [V1ApiKey], { description: 'The active /v1 keys of the business (hints only), test first' })
  async v1ApiKeys(@Ctx() context: GraphQLContext): Promise<V1ApiKey[]> {
    return (await context.core.v1Keys.active(caller(context))).map(V1ApiKey.from);
  }

  @Mutation(() => IssuedV1ApiKey, {
    description: 'Issues the /v1 secret key of a mode (OWNER of a verified business only); shown once. The previous key of that mode stops working at once',
  })
  async issueV1ApiKey(@Arg('mode', () => Mode, { defaultValue: Mode.TEST }) mode: Mode, @Ctx() context: GraphQLContext): Promise<IssuedV1ApiKey> {
    return IssuedV1ApiKey.from(await context.core.v1Keys.issue(caller(context), { mode }));
  }
}
