import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { WebhookEndpoint as WebhookEndpointRow } from '../../domain/webhooks';
import { GraphQLContext, caller } from '../shared/context';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import { parseInput } from '../../wire/validation';
import { rotateSecretSchema, treasuryEndpointCreateSchema, treasuryEndpointUpdateSchema } from '../../wire/webhooks';
import {
  CreateTreasuryWebhookEndpointPayload,
  DeleteTreasuryWebhookEndpointPayload,
  RotateTreasuryWebhookEndpointSecretPayload,
  UpdateTreasuryWebhookEndpointPayload,
} from './treasury-webhook-endpoint.payloads';
import {
  CreateTreasuryWebhookEndpointInput,
  DeleteTreasuryWebhookEndpointInput,
  RotateTreasuryWebhookEndpointSecretInput,
  TreasuryWebhookEndpoint,
  TreasuryWebhookEndpointConnection,
  TreasuryWebhookEndpointWithSecret,
  UpdateTreasuryWebhookEndpointInput,
} from './treasury-webhook-endpoint.types';

defineNode({
  type: TreasuryWebhookEndpoint,
  entity: WebhookEndpointRow,
  load: async (context, id) =>
    TreasuryWebhookEndpoint.from(await context.core.treasuryWebhookEndpoints.get(caller(context), id)),
});

/**
 * The treasury webhook endpoint registry, the same operations as /api/v1/treasury/webhook-endpoints.
 * The role and the product are asked first (thrown, as REST answers them before anything else);
 * then the endpoint's existence and the input, as userErrors.
 */
@Resolver(() => TreasuryWebhookEndpoint)
export class TreasuryWebhookEndpointResolver {
  @Query(() => TreasuryWebhookEndpointConnection, {
    description: 'Treasury webhook endpoints of the active business and mode, newest first',
    complexity: perRow,
  })
  async treasuryWebhookEndpoints(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
  ): Promise<TreasuryWebhookEndpointConnection> {
    const page = await context.core.treasuryWebhookEndpoints.page(caller(context), {
      kind: 'keyset',
      first: first ?? null,
      after: after ?? null,
    });
    return toConnection(page, TreasuryWebhookEndpoint.from);
  }

  @Query(() => TreasuryWebhookEndpoint, {
    description:
      "One treasury endpoint of the active business and mode (NOT_FOUND otherwise, a merchant endpoint's id included)",
  })
  async treasuryWebhookEndpoint(
    @Arg('id', () => ID, { description: "The endpoint's id (UUID, as REST answers it)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<TreasuryWebhookEndpoint> {
    return TreasuryWebhookEndpoint.from(await context.core.treasuryWebhookEndpoints.get(caller(context), id));
  }

  @Mutation(() => CreateTreasuryWebhookEndpointPayload, {
    description: 'Registers an endpoint; its signing secret is answered only here',
  })
  async createTreasuryWebhookEndpoint(
    @Arg('input', { description: 'The URL, event types, status, note and interface version of the endpoint' })
    input: CreateTreasuryWebhookEndpointInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreateTreasuryWebhookEndpointPayload> {
    const ctx = caller(context);
    await context.core.treasuryWebhookEndpoints.assertAccess(ctx, 'write');
    return payloadOf(CreateTreasuryWebhookEndpointPayload, async () =>
      TreasuryWebhookEndpointWithSecret.from(
        await context.core.treasuryWebhookEndpoints.create(ctx, parseInput(treasuryEndpointCreateSchema, { ...input })),
      ),
    );
  }

  @Mutation(() => RotateTreasuryWebhookEndpointSecretPayload, {
    description:
      'Issues a new signing secret; the replaced one keeps signing for gracePeriodHours (0 to 168, default 24)',
  })
  async rotateTreasuryWebhookEndpointSecret(
    @Arg('input', { description: 'The endpoint and the grace period of its replaced secret' })
    input: RotateTreasuryWebhookEndpointSecretInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RotateTreasuryWebhookEndpointSecretPayload> {
    const ctx = caller(context);
    await context.core.treasuryWebhookEndpoints.assertAccess(ctx, 'write');
    return payloadOf(RotateTreasuryWebhookEndpointSecretPayload, async () => {
      await context.core.treasuryWebhookEndpoints.assertAccess(ctx, 'write', input.id);
      const command = parseInput(rotateSecretSchema, { gracePeriodHours: input.gracePeriodHours });
      return TreasuryWebhookEndpointWithSecret.from(
        await context.core.treasuryWebhookEndpoints.rotateSecret(ctx, input.id, command),
      );
    });
  }

  @Mutation(() => UpdateTreasuryWebhookEndpointPayload, {
    description: 'Changes the fields given; the others stay as they are (the signing secret changes only by rotation)',
  })
  async updateTreasuryWebhookEndpoint(
    @Arg('input', { description: 'The endpoint and the fields to change' }) input: UpdateTreasuryWebhookEndpointInput,
    @Ctx() context: GraphQLContext,
  ): Promise<UpdateTreasuryWebhookEndpointPayload> {
    const ctx = caller(context);
    await context.core.treasuryWebhookEndpoints.assertAccess(ctx, 'write');
    return payloadOf(UpdateTreasuryWebhookEndpointPayload, async () => {
      const { id, ...changes } = input;
      await context.core.treasuryWebhookEndpoints.assertAccess(ctx, 'write', id);
      return TreasuryWebhookEndpoint.from(
        await context.core.treasuryWebhookEndpoints.update(ctx, id, parseInput(treasuryEndpointUpdateSchema, changes)),
      );
    });
  }

  @Mutation(() => DeleteTreasuryWebhookEndpointPayload, {
    description: 'Deletes the endpoint; past deliveries are kept',
  })
  async deleteTreasuryWebhookEndpoint(
    @Arg('input', { description: 'The endpoint to delete' }) input: DeleteTreasuryWebhookEndpointInput,
    @Ctx() context: GraphQLContext,
  ): Promise<DeleteTreasuryWebhookEndpointPayload> {
    const ctx = caller(context);
    await context.core.treasuryWebhookEndpoints.assertAccess(ctx, 'write');
    return payloadOf(DeleteTreasuryWebhookEndpointPayload, async () =>
      TreasuryWebhookEndpoint.from(await context.core.treasuryWebhookEndpoints.delete(ctx, input.id)),
    );
  }
}
