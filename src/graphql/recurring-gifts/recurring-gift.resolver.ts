import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { RecurringGift as RecurringGiftRow, RecurringGiftStatus } from '../../domain/recurring-gifts';
import { PaymentLink } from '../payment-links/payment-link.types';
import { recurringGiftFiltersSchema } from '../../wire/checkout';
import { parseInput } from '../../wire/validation';
import { GraphQLContext, caller } from '../shared/context';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import {
  CancelRecurringGiftPayload,
  ResumeRecurringGiftPayload,
  SandboxChargeRecurringGiftPayload,
} from './recurring-gift.payloads';
import {
  CancelRecurringGiftInput,
  RecurringGift,
  RecurringGiftConnection,
  ResumeRecurringGiftInput,
  SandboxChargeRecurringGiftInput,
} from './recurring-gift.types';

defineNode({
  type: RecurringGift,
  entity: RecurringGiftRow,
  load: async (context, id) => RecurringGift.from(await context.core.recurringGifts.get(caller(context), id)),
});

/** Recurring gifts, the same operations as /api/v1/business/recurring-gifts (and the sandbox charge-now). */
@Resolver(() => RecurringGift)
export class RecurringGiftResolver {
  @Query(() => RecurringGiftConnection, {
    description: 'Recurring gifts of the active business and mode, newest first',
    complexity: perRow,
  })
  async recurringGifts(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('status', () => RecurringGiftStatus, { nullable: true, description: 'Only gifts in this status' })
    status?: RecurringGiftStatus,
    @Arg('paymentLinkId', () => ID, { nullable: true, description: 'Only gifts made on this payment link' })
    paymentLinkId?: string,
  ): Promise<RecurringGiftConnection> {
    const filters = parseInput(recurringGiftFiltersSchema, {
      status: status ?? undefined,
      paymentLinkId: paymentLinkId ?? undefined,
    });
    const page = await context.core.recurringGifts.list(caller(context), filters, {
      kind: 'keyset',
      first: first ?? null,
      after: after ?? null,
    });
    return toConnection(page, RecurringGift.from);
  }

  @Query(() => RecurringGift, {
    description:
      'One recurring gift of the active business and mode (NOT_FOUND for an unknown id or another business or mode)',
  })
  async recurringGift(
    @Arg('id', () => ID, { description: "The recurring gift's id (UUID)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<RecurringGift> {
    return RecurringGift.from(await context.core.recurringGifts.get(caller(context), id));
  }

  @Mutation(() => CancelRecurringGiftPayload, { description: 'Stops the gift for good' })
  async cancelRecurringGift(
    @Arg('input', { description: 'The gift to cancel' }) input: CancelRecurringGiftInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CancelRecurringGiftPayload> {
    const who = caller(context);
    return payloadOf(CancelRecurringGiftPayload, async () =>
      RecurringGift.from(await context.core.recurringGifts.cancel(who, input.id)),
    );
  }

  @Mutation(() => ResumeRecurringGiftPayload, {
    description: 'PAUSED → ACTIVE; the next charge is one interval from now',
  })
  async resumeRecurringGift(
    @Arg('input', { description: 'The PAUSED gift to resume' }) input: ResumeRecurringGiftInput,
    @Ctx() context: GraphQLContext,
  ): Promise<ResumeRecurringGiftPayload> {
    const who = caller(context);
    return payloadOf(ResumeRecurringGiftPayload, async () =>
      RecurringGift.from(await context.core.recurringGifts.resume(who, input.id)),
    );
  }

  @Mutation(() => SandboxChargeRecurringGiftPayload, {
    description: 'Sandbox only: charges an ACTIVE gift now instead of at nextChargeAt',
  })
  async sandboxChargeRecurringGift(
    @Arg('input', { description: 'The ACTIVE gift to charge now' }) input: SandboxChargeRecurringGiftInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SandboxChargeRecurringGiftPayload> {
    const who = caller(context);
    return payloadOf(SandboxChargeRecurringGiftPayload, async () =>
      RecurringGift.from(await context.core.recurringGifts.sandboxChargeNow(who, input.id)),
    );
  }

  @FieldResolver(() => PaymentLink, { nullable: true, description: 'The payment link the gift was made on' })
  async paymentLink(@Root() gift: RecurringGift, @Ctx() context: GraphQLContext): Promise<PaymentLink | null> {
    const link = await context.loaders.paymentLinkById.load(gift.paymentLinkId);
    return link ? PaymentLink.from(link, context.core) : null;
  }
}
