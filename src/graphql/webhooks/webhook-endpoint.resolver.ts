import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLContext, caller } from '../shared/context';
import { parseInput } from '../../wire/validation';
import { endpointCreateSchema, endpointUpdateSchema } from '../../wire/webhooks';
import { CreateWebhookEndpointInput, UpdateWebhookEndpointInput, WebhookEndpoint } from './webhook-endpoint.types';

/** The merchant webhook endpoint registry, the same operations as /api/v1/webhook-endpoints. */
@Resolver(() => WebhookEndpoint)
export class WebhookEndpointResolver {
  @Query(() => [WebhookEndpoint], { description: 'Webhook endpoints of the active business and mode' })
  async webhookEndpoints(@Ctx() context: GraphQLContext): Promise<WebhookEndpoint[]> {
    return (await context.core.webhookEndpoints.list(caller(context))).map(WebhookEndpoint.from);
  }

  @Query(() => WebhookEndpoint)
  async webhookEndpoint(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<WebhookEndpoint> {
    return WebhookEndpoint.from(await context.core.webhookEndpoints.get(caller(context), id));
  }

  @Mutation(() => WebhookEndpoint)
  async createWebhookEndpoint(@Arg('input') input: CreateWebhookEndpointInput, @Ctx() context: GraphQLContext): Promise<WebhookEndpoint> {
    const ctx = caller(context);
    await context.core.webhookEndpoints.assertAccess(ctx, 'write');
    return WebhookEndpoint.from(await context.core.webhookEndpoints.create(ctx, parseInput(endpointCreateSchema, { ...input })));
  }

  @Mutation(() => WebhookEndpoint)
  async updateWebhookEndpoint(
    @Arg('id', () => ID) id: string,
    @Arg('input') input: UpdateWebhookEndpointInput,
    @Ctx() context: GraphQLContext,
  ): Promise<WebhookEndpoint> {
    const ctx = caller(context);
    await context.core.webhookEndpoints.assertAccess(ctx, 'write', id);
    return WebhookEndpoint.from(await context.core.webhookEndpoints.update(ctx, id, parseInput(endpointUpdateSchema, { ...input })));
  }

  @Mutation(() => WebhookEndpoint, { description: 'Deletes the endpoint; past deliveries are kept' })
  async deleteWebhookEndpoint(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<WebhookEndpoint> {
    return WebhookEndpoint.from(await context.core.webhookEndpoints.delete(caller(context), id));
  }
}
