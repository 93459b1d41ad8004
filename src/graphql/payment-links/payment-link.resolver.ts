import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { createPaymentLinkCommand, createPaymentLinkSchema, paymentLinkFiltersSchema } from '../../wire/checkout';
import { parseInput } from '../../wire/validation';
import { GraphQLContext, caller } from '../shared/context';
import { toConnection } from '../shared/connection';
import { CreatePaymentLinkInput, PaymentLink, PaymentLinkConnection } from './payment-link.types';

/** Payment links, the same operations as /api/v1/business/payment-links. */
@Resolver(() => PaymentLink)
export class PaymentLinkResolver {
  @Query(() => PaymentLinkConnection, {
    description: 'Payment links of the active business and mode, newest first',
    complexity: ({ args, childComplexity }) => (args.first ?? 20) * childComplexity,
  })
  async paymentLinks(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('active', () => Boolean, { nullable: true }) active?: boolean,
  ): Promise<PaymentLinkConnection> {
    const page = await context.core.paymentLinks.list(caller(context), parseInput(paymentLinkFiltersSchema, { active }), { kind: 'keyset', first: first ?? null, after: after ?? null });
    return toConnection(page, (row) => PaymentLink.from(row, context.core));
  }

  @Query(() => PaymentLink)
  async paymentLink(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<PaymentLink> {
    return PaymentLink.from(await context.core.paymentLinks.get(caller(context), id), context.core);
  }

  @Mutation(() => PaymentLink)
  async createPaymentLink(@Arg('input') input: CreatePaymentLinkInput, @Ctx() context: GraphQLContext): Promise<PaymentLink> {
    return PaymentLink.from(await context.core.paymentLinks.create(caller(context), createPaymentLinkCommand(parseInput(createPaymentLinkSchema, { ...input }))), context.core);
  }

  @Mutation(() => PaymentLink, { description: 'Stops the link from opening new checkout sessions' })
  async deactivatePaymentLink(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<PaymentLink> {
    return PaymentLink.from(await context.core.paymentLinks.deactivate(caller(context), id), context.core);
  }
}
