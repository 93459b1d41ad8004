import { Arg, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import {
  CheckoutSession as CheckoutSessionRow,
  CheckoutSessionChange,
  CheckoutSessionSource,
  CheckoutSessionStatus,
  CheckoutTopic,
} from '../../domain/checkout';
import { notFound } from '../../domain/shared/errors';
import {
  checkoutSessionFiltersSchema,
  createCheckoutSessionCommand,
  createCheckoutSessionSchema,
} from '../../wire/checkout';
import { parseInput } from '../../wire/validation';
import { GraphQLContext, caller, ownedBySubscriber } from '../shared/context';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import { CreateCheckoutSessionPayload } from './checkout-session.payloads';
import {
  CheckoutSession,
  CheckoutSessionConnection,
  CheckoutSessionUpdate,
  CreateCheckoutSessionInput,
} from './checkout-session.types';

defineNode({
  type: CheckoutSession,
  entity: CheckoutSessionRow,
  load: async (context, id) => CheckoutSession.from(await context.core.checkout.get(caller(context), id), context.core),
});

/** Hosted checkout sessions, the same operations as /api/v1/business/checkout/session(s). */
@Resolver(() => CheckoutSession)
export class CheckoutSessionResolver {
  @Query(() => CheckoutSessionConnection, {
    description: 'Checkout sessions of the active business and mode, newest first',
    complexity: perRow,
  })
  async checkoutSessions(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('status', () => CheckoutSessionStatus, { nullable: true, description: 'Only sessions in this status' })
    status?: CheckoutSessionStatus,
    @Arg('source', () => CheckoutSessionSource, { nullable: true, description: 'Only sessions opened by this source' })
    source?: CheckoutSessionSource,
  ): Promise<CheckoutSessionConnection> {
    const page = await context.core.checkout.list(
      caller(context),
      parseInput(checkoutSessionFiltersSchema, { status: status ?? undefined, source: source ?? undefined }),
      { kind: 'keyset', first: first ?? null, after: after ?? null },
    );
    return toConnection(page, (row) => CheckoutSession.from(row, context.core));
  }

  @Query(() => CheckoutSession, {
    description:
      'One checkout session of the active business and mode (NOT_FOUND for an unknown id or another business or mode)',
  })
  async checkoutSession(
    @Arg('id', () => ID, { description: "The session's id (UUID)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<CheckoutSession> {
    return CheckoutSession.from(await context.core.checkout.get(caller(context), id), context.core);
  }

  @Mutation(() => CreateCheckoutSessionPayload, {
    description: 'Opens a hosted checkout session (REST: POST /business/checkout/session)',
  })
  async createCheckoutSession(
    @Arg('input', { description: 'The amount, currency, URLs and what the page offers' })
    input: CreateCheckoutSessionInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreateCheckoutSessionPayload> {
    const who = caller(context);
    return payloadOf(CreateCheckoutSessionPayload, async () => {
      const command = createCheckoutSessionCommand(parseInput(createCheckoutSessionSchema, { ...input }));
      return CheckoutSession.from(await context.core.checkout.create(who, command), context.core);
    });
  }

  @Subscription(() => CheckoutSessionUpdate, {
    topics: CheckoutTopic.CHECKOUT_SESSION,
    description:
      "Each change of the subscriber's checkout sessions once (one session when id is given): opened, then COMPLETED, EXPIRED or LOCKED; its business and mode only",
    filter: ({
      payload,
      args,
      context,
    }: {
      payload: CheckoutSessionChange;
      args: { id?: string };
      context: GraphQLContext;
    }) => ownedBySubscriber(payload, context) && (!args.id || args.id === payload.sessionId),
  })
  async checkoutSessionUpdated(
    @Root() change: CheckoutSessionChange,
    @Ctx() context: GraphQLContext,
    @Arg('id', () => ID, {
      nullable: true,
      description: "Only this session's changes; every session of the business and mode when omitted",
    })
    _id?: string,
  ): Promise<CheckoutSessionUpdate> {
    caller(context);
    const session = await context.loaders.checkoutSessionById.load(change.sessionId);
    if (!session) throw notFound('Checkout session');
    return CheckoutSessionUpdate.of(session, change.previousStatus, context.core);
  }
}
