import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { GraphQLContext, caller } from '../shared/context';
import { parseInput } from '../../wire/validation';
import { rotateSecretSchema, treasuryEndpointCreateSchema, treasuryEndpointUpdateSchema } from '../../wire/webhooks';
import {
  CreateTreasuryWebhookEndpointInput, TreasuryWebhookEndpoint, TreasuryWebhookEndpointWithSecret, UpdateTreasuryWebhookEndpointInput,
} from './treasury-webhook-endpoint.types';

/** The treasury webhook endpoint registry, the same operations as /api/v1/treasury/webhook-endpoints. */
@Resolver(() => TreasuryWebhookEndpoint)
export class TreasuryWebhookEndpointResolver {
  @Query(() => [TreasuryWebhookEndpoint], { description: 'Treasury webhook endpoints of the active business and mode' })
  async treasuryWebhookEndpoints(@Ctx() context: GraphQLContext): Promise<TreasuryWebhookEndpoint[]> {
    return (await context.core.treasuryWebhookEndpoints.list(caller(context))).map(TreasuryWebhookEndpoint.from);
  }

  @Query(() => TreasuryWebhookEndpoint)
  async treasuryWebhookEndpoint(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<TreasuryWebhookEndpoint> {
    return TreasuryWebhookEndpoint.from(await context.core.treasuryWebhookEndpoints.get(caller(context), id));
  }

  @Mutation(() => TreasuryWebhookEndpointWithSecret, { description: 'Registers an endpoint; its signing secret is answered only here' })
  async createTreasuryWebhookEndpoint(
    @Arg('input') input: CreateTreasuryWebhookEndpointInput,
    @Ctx() context: GraphQLContext,
  ): Promise<TreasuryWebhookEndpointWithSecret> {
    const ctx = caller(context);
    await context.core.treasuryWebhookEndpoints.assertAccess(ctx, 'write');
    return TreasuryWebhookEndpointWithSecret.from(await context.core.treasuryWebhookEndpoints.create(ctx, parseInput(treasuryEndpointCreateSchema, { ...input })));
  }

  @Mutation(() => TreasuryWebhookEndpointWithSecret, {
    description: 'Issues a new signing secret; the replaced one keeps signing for gracePeriodHours (0 to 168, default 24)',
  })
  async rotateTreasuryWebhookEndpointSecret(
    @Arg('id', () => ID) id: string,
    @Ctx() context: GraphQLContext,
    @Arg('gracePeriodHours', () => Int, { nullable: true }) gracePeriodHours?: number,
  ): Promise<TreasuryWebhookEndpointWithSecret> {
    const ctx = caller(context);
    await context.core.treasuryWebhookEndpoints.assertAccess(ctx, 'write', id);
    return TreasuryWebhookEndpointWithSecret.from(
      await context.core.treasuryWebhookEndpoints.rotateSecret(ctx, id, parseInput(rotateSecretSchema, { gracePeriodHours })));
  }

  @Mutation(() => TreasuryWebhookEndpoint)
  async updateTreasuryWebhookEndpoint(
    @Arg('id', () => ID) id: string,
    @Arg('input') input: UpdateTreasuryWebhookEndpointInput,
    @Ctx() context: GraphQLContext,
  ): Promise<TreasuryWebhookEndpoint> {
    const ctx = caller(context);
    await context.core.treasuryWebhookEndpoints.assertAccess(ctx, 'write', id);
    return TreasuryWebhookEndpoint.from(await context.core.treasuryWebhookEndpoints.update(ctx, id, parseInput(treasuryEndpointUpdateSchema, { ...input })));
  }

  @Mutation(() => TreasuryWebhookEndpoint, { description: 'Deletes the endpoint; past deliveries are kept' })
  async deleteTreasuryWebhookEndpoint(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<TreasuryWebhookEndpoint> {
    return TreasuryWebhookEndpoint.from(await context.core.treasuryWebhookEndpoints.delete(caller(context), id));
  }
}
