import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { WebhookEndpoint as WebhookEndpointRow } from '../../domain/webhooks';
import { GraphQLContext, caller } from '../shared/context';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import { parseInput } from '../../wire/validation';
import { deliveryFiltersSchema, endpointCreateSchema, endpointUpdateSchema } from '../../wire/webhooks';
import { WebhookDelivery, WebhookDeliveryConnection } from '../events/event.types';
import { pageOfList } from '../identity/list-page';
import {
  CreateWebhookEndpointInput,
  CreateWebhookEndpointPayload,
  DeleteWebhookEndpointInput,
  DeleteWebhookEndpointPayload,
  UpdateWebhookEndpointByIdInput,
  UpdateWebhookEndpointPayload,
  WebhookEndpoint,
  WebhookEndpointConnection,
} from './webhook-endpoint.types';
import { TreasuryWebhookEndpoint } from './treasury-webhook-endpoint.types';

// The merchant registry's endpoints only: a treasury endpoint's id (the same table) is NOT_FOUND here.
defineNode({
  type: WebhookEndpoint,
  entity: WebhookEndpointRow,
  load: async (context, id) => WebhookEndpoint.from(await context.core.webhookEndpoints.get(caller(context), id)),
});

/** The merchant webhook endpoint registry, the same operations as /api/v1/webhook-endpoints. */
@Resolver(() => WebhookEndpoint)
export class WebhookEndpointResolver {
  @Query(() => WebhookEndpointConnection, {
    description: 'Webhook endpoints of the active business and mode, newest first',
    complexity: perRow,
  })
  async webhookEndpoints(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
  ): Promise<WebhookEndpointConnection> {
    const endpoints = await context.core.webhookEndpoints.list(caller(context));
    return toConnection(
      pageOfList(endpoints, 'newestFirst', 'webhookEndpoints', { first, after }),
      WebhookEndpoint.from,
    );
  }

  @FieldResolver(() => WebhookDeliveryConnection, {
    description:
      "This endpoint's deliveries, newest first (REST GET /webhook-endpoints/{id}/deliveries, /treasury/webhook-endpoints/{id}/deliveries)",
    complexity: perRow,
  })
  async deliveries(
    @Root() endpoint: WebhookEndpoint,
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('status', () => String, {
      nullable: true,
      description: 'One of pending, succeeded, failed or permanently_failed',
    })
    status?: string,
    @Arg('eventType', () => String, { nullable: true, description: 'The event type, for example wallet.funded' })
    eventType?: string,
  ): Promise<WebhookDeliveryConnection> {
    const filters = parseInput(deliveryFiltersSchema, { status, eventType });
    // The treasury registry's endpoints inherit the field: each lists from its own registry.
    const registry =
      endpoint instanceof TreasuryWebhookEndpoint
        ? context.core.treasuryWebhookEndpoints
        : context.core.webhookEndpoints;
    const page = await registry.listDeliveries(
      caller(context),
      { endpointId: endpoint.id, status: filters.status ?? null, eventType: filters.eventType ?? null },
      { kind: 'keyset', first: first ?? null, after: after ?? null },
    );
    return toConnection(page, WebhookDelivery.from);
  }

  @Query(() => WebhookEndpoint, {
    description: 'One endpoint of the merchant registry, of the active business and mode (NOT_FOUND otherwise)',
  })
  async webhookEndpoint(
    @Arg('id', () => ID, { description: "The endpoint's id (UUID, as REST answers it)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<WebhookEndpoint> {
    return WebhookEndpoint.from(await context.core.webhookEndpoints.get(caller(context), id));
  }

  @Mutation(() => CreateWebhookEndpointPayload, {
    description: 'Registers an endpoint for some event types of the active mode; a 21st endpoint of a mode is CONFLICT',
  })
  async createWebhookEndpoint(
    @Arg('input', { description: 'The URL, event types, status and note of the endpoint' })
    input: CreateWebhookEndpointInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreateWebhookEndpointPayload> {
    const ctx = caller(context);
    await context.core.webhookEndpoints.assertAccess(ctx, 'write');
    return payloadOf(CreateWebhookEndpointPayload, async () =>
      WebhookEndpoint.from(
        await context.core.webhookEndpoints.create(ctx, parseInput(endpointCreateSchema, { ...input })),
      ),
    );
  }

  @Mutation(() => UpdateWebhookEndpointPayload, {
    description: 'Changes the fields given; the others stay as they are',
  })
  async updateWebhookEndpoint(
    @Arg('input', { description: 'The endpoint and the fields to change' }) input: UpdateWebhookEndpointByIdInput,
    @Ctx() context: GraphQLContext,
  ): Promise<UpdateWebhookEndpointPayload> {
    const ctx = caller(context);
    await context.core.webhookEndpoints.assertAccess(ctx, 'write');
    const { id, ...changes } = input;
    return payloadOf(UpdateWebhookEndpointPayload, async () => {
      await context.core.webhookEndpoints.assertAccess(ctx, 'write', id); // NOT_FOUND before the shape, as REST answers
      return WebhookEndpoint.from(
        await context.core.webhookEndpoints.update(ctx, id, parseInput(endpointUpdateSchema, changes)),
      );
    });
  }

  @Mutation(() => DeleteWebhookEndpointPayload, { description: 'Deletes the endpoint; past deliveries are kept' })
  async deleteWebhookEndpoint(
    @Arg('input', { description: 'The endpoint to delete' }) input: DeleteWebhookEndpointInput,
    @Ctx() context: GraphQLContext,
  ): Promise<DeleteWebhookEndpointPayload> {
    const ctx = caller(context);
    return payloadOf(DeleteWebhookEndpointPayload, async () =>
      WebhookEndpoint.from(await context.core.webhookEndpoints.delete(ctx, input.id)),
    );
  }
}
