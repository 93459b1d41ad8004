import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Mode } from '../../domain/identity/identity.entities';
import { GraphQLContext, caller } from '../shared/context';
import { parseInput } from '../../wire/validation';
import { v1WebhookUrlSchema } from '../../wire/accounts';
import { IssuedV1ApiKey, V1ApiKey, V1WebhookSettings } from './v1-key.types';

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

  @Query(() => V1WebhookSettings, { description: "The /v1 webhook URL of the caller's mode" })
  async v1WebhookUrl(@Ctx() context: GraphQLContext): Promise<V1WebhookSettings> {
    return Object.assign(new V1WebhookSettings(), await context.core.v1Settings.get(caller(context)));
  }

  @Mutation(() => V1WebhookSettings, {
    description: "Sets (null removes) the URL that receives the business's /v1 events of the caller's mode; the main surface's webhookUrl and endpoints never receive them",
  })
  async setV1WebhookUrl(@Arg('url', () => String, { nullable: true }) url: string | null, @Ctx() context: GraphQLContext): Promise<V1WebhookSettings> {
    const { webhookUrl } = parseInput(v1WebhookUrlSchema, { webhookUrl: url ?? null });
    return Object.assign(new V1WebhookSettings(), await context.core.v1Settings.setWebhookUrl(caller(context), webhookUrl));
  }
}
