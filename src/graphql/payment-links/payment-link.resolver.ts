import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { createPaymentLinkCommand, createPaymentLinkSchema, paymentLinkFiltersSchema } from '../../wire/checkout';
import { parseInput } from '../../wire/validation';
import { GraphQLContext, caller } from '../shared/context';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import { PaymentLink as PaymentLinkRow } from '../../domain/payment-links';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import { CreatePaymentLinkPayload, DeactivatePaymentLinkPayload } from './payment-link.payloads';
import {
  CreatePaymentLinkInput,
  DeactivatePaymentLinkInput,
  PaymentLink,
  PaymentLinkConnection,
} from './payment-link.types';

defineNode({
  type: PaymentLink,
  entity: PaymentLinkRow,
  load: async (context, id) => PaymentLink.from(await context.core.paymentLinks.get(caller(context), id), context.core),
});

/** Payment links, the same operations as /api/v1/business/payment-links. */
@Resolver(() => PaymentLink)
export class PaymentLinkResolver {
  @Query(() => PaymentLinkConnection, {
    description: 'Payment links of the active business and mode, newest first',
    complexity: perRow,
  })
  async paymentLinks(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('active', () => Boolean, {
      nullable: true,
      description: 'Only active (true) or deactivated (false) links; both when omitted',
    })
    active?: boolean,
  ): Promise<PaymentLinkConnection> {
    const page = await context.core.paymentLinks.list(
      caller(context),
      parseInput(paymentLinkFiltersSchema, { active: active ?? undefined }),
      { kind: 'keyset', first: first ?? null, after: after ?? null },
    );
    return toConnection(page, (row) => PaymentLink.from(row, context.core));
  }

  @Query(() => PaymentLink, {
    description:
      'One payment link of the active business and mode (NOT_FOUND for an unknown id or another business or mode)',
  })
  async paymentLink(
    @Arg('id', () => ID, { description: "The payment link's id (UUID)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<PaymentLink> {
    return PaymentLink.from(await context.core.paymentLinks.get(caller(context), id), context.core);
  }

  @Mutation(() => CreatePaymentLinkPayload, {
    description: 'Creates an active payment link (REST: POST /business/payment-links)',
  })
  async createPaymentLink(
    @Arg('input', { description: 'The name, amount, currency and recurring options' }) input: CreatePaymentLinkInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreatePaymentLinkPayload> {
    const who = caller(context);
    return payloadOf(CreatePaymentLinkPayload, async () => {
      const command = createPaymentLinkCommand(parseInput(createPaymentLinkSchema, { ...input }));
      return PaymentLink.from(await context.core.paymentLinks.create(who, command), context.core);
    });
  }

  @Mutation(() => DeactivatePaymentLinkPayload, { description: 'Stops the link from opening new checkout sessions' })
  async deactivatePaymentLink(
    @Arg('input', { description: 'The payment link to deactivate' }) input: DeactivatePaymentLinkInput,
    @Ctx() context: GraphQLContext,
  ): Promise<DeactivatePaymentLinkPayload> {
    const who = caller(context);
    return payloadOf(DeactivatePaymentLinkPayload, async () =>
      PaymentLink.from(await context.core.paymentLinks.deactivate(who, input.id), context.core),
    );
  }
}
