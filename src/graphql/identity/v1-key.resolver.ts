import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { notFound } from '../../domain/shared/errors';
import { V1ApiKey as V1ApiKeyRow } from '../../domain/identity';
import { GraphQLContext, caller } from '../shared/context';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import { parseInput } from '../../wire/validation';
import { v1WebhookUrlSchema } from '../../wire/accounts';
import {
  IssueV1ApiKeyInput,
  IssueV1ApiKeyPayload,
  IssuedV1ApiKey,
  SetV1WebhookUrlInput,
  SetV1WebhookUrlPayload,
  V1ApiKey,
  V1WebhookSettings,
} from './v1-key.types';

// An active key, as v1ApiKeys answers it (a reissued key's predecessor is no longer anyone's).
defineNode({
  type: V1ApiKey,
  entity: V1ApiKeyRow,
  load: async (context, id) => {
    const key = (await context.core.v1Keys.active(caller(context))).find((row) => row.id === id);
    if (!key) throw notFound('/v1 API key');
    return V1ApiKey.from(key);
  },
});

/** The keys of the alternate surface /v1 (design section 11), issued by an OWNER of a verified business. */
@Resolver()
export class V1KeyResolver {
  @Query(() => [V1ApiKey], {
    description:
      'The active /v1 keys of the business (hints only), test first: at most one per mode, so not paged (both modes for a dashboard user, its own for an API credential)',
  })
  async v1ApiKeys(@Ctx() context: GraphQLContext): Promise<V1ApiKey[]> {
    return (await context.core.v1Keys.active(caller(context))).map(V1ApiKey.from);
  }

  @Mutation(() => IssueV1ApiKeyPayload, {
    description:
      'Issues the /v1 secret key of a mode (OWNER of a verified business only); shown once. The previous key of that mode stops working at once',
  })
  async issueV1ApiKey(
    @Arg('input', { description: 'The mode of the key to issue' }) input: IssueV1ApiKeyInput,
    @Ctx() context: GraphQLContext,
  ): Promise<IssueV1ApiKeyPayload> {
    const ctx = caller(context);
    return payloadOf(IssueV1ApiKeyPayload, async () =>
      IssuedV1ApiKey.from(await context.core.v1Keys.issue(ctx, { mode: input.mode })),
    );
  }

  @Query(() => V1WebhookSettings, { description: "The /v1 webhook URL of the caller's mode" })
  async v1WebhookUrl(@Ctx() context: GraphQLContext): Promise<V1WebhookSettings> {
    return Object.assign(new V1WebhookSettings(), await context.core.v1Settings.get(caller(context)));
  }

  @Mutation(() => SetV1WebhookUrlPayload, {
    description:
      "Sets (null removes) the URL that receives the business's /v1 events of the caller's mode; the main surface's webhookUrl and endpoints never receive them",
  })
  async setV1WebhookUrl(
    @Arg('input', { description: 'The URL to set, or null to remove it' }) input: SetV1WebhookUrlInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SetV1WebhookUrlPayload> {
    const ctx = caller(context);
    return payloadOf(SetV1WebhookUrlPayload, async () => {
      const { webhookUrl } = parseInput(v1WebhookUrlSchema, { webhookUrl: input.webhookUrl ?? null });
      return Object.assign(new V1WebhookSettings(), await context.core.v1Settings.setWebhookUrl(ctx, webhookUrl));
    });
  }
}
