import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import {
  Payout as PayoutRow,
  PayoutBatch as PayoutBatchRow,
  PayoutChange,
  PayoutQuote as PayoutQuoteRow,
  PayoutRailKind,
  PayoutStatus,
  PayoutTopic,
  Recipient as RecipientRow,
} from '../../domain/payouts';
import { notFound } from '../../domain/shared/errors';
import {
  advancePayoutBodySchema,
  createBatchBodySchema,
  createPayoutBodySchema,
  createQuoteBodySchema,
  createRecipientBodySchema,
  rejectPayoutBodySchema,
  toAdvancePayoutCommand,
  toCreateBatchCommand,
  toCreatePayoutCommand,
  toCreateQuoteCommand,
  toCreateRecipientCommand,
} from '../../wire/payouts';
import { parseInput } from '../../wire/validation';
import { definedFields } from '../customers/customer.types';
import { AFTER_ARG, FIRST_ARG, keysetPage, perRow, toConnection } from '../shared/connection';
import { GraphQLContext, caller, ownedBySubscriber } from '../shared/context';
import { payloadOf } from '../shared/payload';
import { defineNode } from '../shared/node';
import {
  AdvanceSandboxPayoutInput,
  ApprovePayoutInput,
  ArchivePayoutRecipientInput,
  CancelPayoutInput,
  CreatePayoutBatchInput,
  CreatePayoutInput,
  CreatePayoutQuoteInput,
  CreatePayoutRecipientInput,
  RejectPayoutInput,
} from './payout.inputs';
import {
  AdvanceSandboxPayoutPayload,
  ApprovePayoutPayload,
  ArchivePayoutRecipientPayload,
  CancelPayoutPayload,
  CreatePayoutBatchPayload,
  CreatePayoutPayload,
  CreatePayoutQuotePayload,
  CreatePayoutRecipientPayload,
  RejectPayoutPayload,
} from './payout.payloads';
import {
  Payout,
  PayoutBatch,
  PayoutBatchConnection,
  PayoutConnection,
  PayoutQuote,
  PayoutRecipient,
  PayoutRecipientConnection,
  PayoutUpdate,
} from './payout.types';

defineNode({
  type: Payout,
  entity: PayoutRow,
  load: async (context, id) => Payout.from(await context.core.payouts.get(caller(context), id)),
});
defineNode({
  type: PayoutRecipient,
  entity: RecipientRow,
  load: async (context, id) => PayoutRecipient.from(await context.core.recipients.get(caller(context), id)),
});
defineNode({
  type: PayoutQuote,
  entity: PayoutQuoteRow,
  load: async (context, id) => PayoutQuote.from(await context.core.quotes.get(caller(context), id)),
});
defineNode({
  type: PayoutBatch,
  entity: PayoutBatchRow,
  load: async (context, id) => PayoutBatch.from(await context.core.payoutBatches.get(caller(context), id)),
});

/**
 * Payouts for the dashboard (design section 8): the same operations and commands as
 * /api/v1/business/payouts, inputs checked with the shapes REST uses (src/wire/payouts).
 */
@Resolver(() => Payout)
export class PayoutResolver {
  @Query(() => PayoutConnection, {
    description: 'Payouts of the active business and mode, newest first',
    complexity: perRow,
  })
  async payouts(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('status', () => PayoutStatus, { nullable: true, description: 'Only payouts in this status' })
    status?: PayoutStatus,
    @Arg('recipientId', () => ID, { nullable: true, description: 'Only payouts to this recipient' })
    recipientId?: string,
    @Arg('batchId', () => ID, { nullable: true, description: 'Only the payouts of this batch' }) batchId?: string,
  ): Promise<PayoutConnection> {
    const filters = {
      status: status ?? undefined,
      recipientId: recipientId ?? undefined,
      batchId: batchId ?? undefined,
    };
    const page = await context.core.payouts.list(caller(context), filters, keysetPage(first, after));
    return toConnection(page, Payout.from);
  }

  @Query(() => Payout, {
    description: "One payout of the active business and mode (NOT_FOUND for another business's or the other mode's)",
  })
  async payout(
    @Arg('id', () => ID, { description: "The payout's id (UUID, as REST answers it)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<Payout> {
    return Payout.from(await context.core.payouts.get(caller(context), id));
  }

  @FieldResolver(() => PayoutRecipient, { description: 'The recipient (archived or not)' })
  async recipient(@Root() payout: Payout, @Ctx() { loaders }: GraphQLContext): Promise<PayoutRecipient> {
    const row = await loaders.recipientById.load(payout.recipientId);
    if (!row) throw notFound('Recipient');
    return PayoutRecipient.from(row);
  }

  @Mutation(() => CreatePayoutPayload, {
    description:
      'Debits the wallet (amount + service fee) and creates the payout (CREATED, or PENDING_REVIEW when held)',
  })
  async createPayout(
    @Arg('input', {
      description: 'The recipient, amount and wallet currency, optionally a quote, reference and metadata',
    })
    input: CreatePayoutInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreatePayoutPayload> {
    const who = caller(context);
    return payloadOf(CreatePayoutPayload, async () => {
      const command = toCreatePayoutCommand(parseInput(createPayoutBodySchema, definedFields(input)));
      return Payout.from(await context.core.payouts.create(who, command));
    });
  }

  @Mutation(() => CancelPayoutPayload, {
    description: 'Only a CREATED payout (CONFLICT otherwise): CANCELLED, and the debit reversed',
  })
  async cancelPayout(
    @Arg('input', { description: 'The CREATED payout to cancel' }) input: CancelPayoutInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CancelPayoutPayload> {
    const who = caller(context);
    return payloadOf(CancelPayoutPayload, async () => Payout.from(await context.core.payouts.cancel(who, input.id)));
  }

  @Mutation(() => ApprovePayoutPayload, {
    description: 'OWNER or ADMIN of the dashboard: a payout held for review goes on to dispatch',
  })
  async approvePayout(
    @Arg('input', { description: 'The PENDING_REVIEW payout to approve' }) input: ApprovePayoutInput,
    @Ctx() context: GraphQLContext,
  ): Promise<ApprovePayoutPayload> {
    const who = caller(context);
    return payloadOf(ApprovePayoutPayload, async () => Payout.from(await context.core.payouts.approve(who, input.id)));
  }

  @Mutation(() => RejectPayoutPayload, {
    description:
      'OWNER or ADMIN of the dashboard: a payout held for review FAILS with the reason, and its debit is reversed',
  })
  async rejectPayout(
    @Arg('input', { description: 'The PENDING_REVIEW payout to reject, and why' }) input: RejectPayoutInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RejectPayoutPayload> {
    const who = caller(context);
    return payloadOf(RejectPayoutPayload, async () => {
      const request = parseInput(rejectPayoutBodySchema, { reason: input.reason });
      return Payout.from(await context.core.payouts.reject(who, { payoutId: input.id, reason: request.reason }));
    });
  }

  @Mutation(() => AdvanceSandboxPayoutPayload, {
    description:
      'Sandbox only: one legal transition to SUBMITTED, SETTLED or FAILED (the current status again changes nothing)',
  })
  async advanceSandboxPayout(
    @Arg('input', { description: 'The test-mode payout and the status to move it to' })
    input: AdvanceSandboxPayoutInput,
    @Ctx() context: GraphQLContext,
  ): Promise<AdvanceSandboxPayoutPayload> {
    const who = caller(context);
    return payloadOf(AdvanceSandboxPayoutPayload, async () => {
      const command = toAdvancePayoutCommand(
        input.id,
        parseInput(advancePayoutBodySchema, definedFields({ status: input.status, reason: input.reason ?? undefined })),
      );
      return Payout.from(await context.core.payouts.sandboxAdvance(who, command));
    });
  }

  @Subscription(() => PayoutUpdate, {
    topics: PayoutTopic.PAYOUT,
    description:
      "Every change of the subscriber's payouts (one payout when id is given), in its business and mode only: the payout, its status before the change and the fields the change set",
    filter: ({ payload, args, context }: { payload: PayoutChange; args: { id?: string }; context: GraphQLContext }) =>
      ownedBySubscriber(payload, context) && (!args.id || args.id === payload.payoutId),
  })
  async payoutUpdated(
    @Root() change: PayoutChange,
    @Ctx() context: GraphQLContext,
    @Arg('id', () => ID, {
      nullable: true,
      description: "Only this payout's changes; every payout of the subscriber's business and mode when omitted",
    })
    _id?: string,
  ): Promise<PayoutUpdate> {
    caller(context);
    // Through the publication's shared loader (core.payouts.byIds): one read for every subscriber of this process.
    const payout = await context.loaders.payoutById.load(change.payoutId);
    if (!payout) throw notFound('Payout');
    return PayoutUpdate.of(Payout.from(payout), change);
  }
}

@Resolver(() => PayoutRecipient)
export class PayoutRecipientResolver {
  @Query(() => PayoutRecipientConnection, {
    description: 'Recipients of the active business and mode, newest first (archived ones when asked)',
    complexity: perRow,
  })
  async payoutRecipients(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('rail', () => PayoutRailKind, { nullable: true, description: 'Only recipients of this rail' })
    rail?: PayoutRailKind,
    @Arg('includeArchived', () => Boolean, {
      nullable: true,
      description: 'True to list archived recipients too (default false)',
    })
    includeArchived?: boolean,
    @Arg('search', () => String, {
      nullable: true,
      description: 'Only recipients whose label contains this text, ignoring case (up to 200 characters)',
    })
    search?: string,
  ): Promise<PayoutRecipientConnection> {
    const page = await context.core.recipients.list(
      caller(context),
      { rail: rail ?? undefined, includeArchived: includeArchived ?? false, search: search ?? undefined },
      keysetPage(first, after),
    );
    return toConnection(page, PayoutRecipient.from);
  }

  @Query(() => PayoutRecipient, {
    description:
      "One recipient of the active business and mode, archived or not (NOT_FOUND for another business's or the other mode's)",
  })
  async payoutRecipient(
    @Arg('id', () => ID, { description: "The recipient's id (UUID, as REST answers it)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<PayoutRecipient> {
    return PayoutRecipient.from(await context.core.recipients.get(caller(context), id));
  }

  @Mutation(() => CreatePayoutRecipientPayload, {
    description:
      'Saves a destination (the same destination answers the existing recipient, created false). A dashboard create is screened: SANCTIONS_MATCH stores nothing',
  })
  async createPayoutRecipient(
    @Arg('input', { description: "The recipient's label and destination details" }) input: CreatePayoutRecipientInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreatePayoutRecipientPayload> {
    const who = caller(context);
    let created: boolean | null = null;
    const payload = await payloadOf(CreatePayoutRecipientPayload, async () => {
      const command = toCreateRecipientCommand(parseInput(createRecipientBodySchema, definedFields(input)));
      const saved = await context.core.recipients.create(who, command);
      created = saved.created;
      return PayoutRecipient.from(saved.recipient);
    });
    return Object.assign(payload, { created });
  }

  @Mutation(() => ArchivePayoutRecipientPayload, {
    description: 'Archives the recipient: it takes no new payouts (archiving again changes nothing)',
  })
  async archivePayoutRecipient(
    @Arg('input', { description: 'The recipient to archive' }) input: ArchivePayoutRecipientInput,
    @Ctx() context: GraphQLContext,
  ): Promise<ArchivePayoutRecipientPayload> {
    const who = caller(context);
    return payloadOf(ArchivePayoutRecipientPayload, async () =>
      PayoutRecipient.from(await context.core.recipients.archive(who, input.id)),
    );
  }

  @Mutation(() => CreatePayoutQuotePayload, { description: 'Prices a payout for 5 minutes (a payout may name it)' })
  async createPayoutQuote(
    @Arg('input', {
      description: 'The amount and wallet currency, and the destination currency, country and rail to price',
    })
    input: CreatePayoutQuoteInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreatePayoutQuotePayload> {
    const who = caller(context);
    return payloadOf(CreatePayoutQuotePayload, async () => {
      const command = toCreateQuoteCommand(parseInput(createQuoteBodySchema, definedFields(input)));
      return PayoutQuote.from(await context.core.quotes.create(who, command));
    });
  }
}

@Resolver(() => PayoutBatch)
export class PayoutBatchResolver {
  @Query(() => PayoutBatchConnection, {
    description: 'Payout batches of the active business and mode, newest first, with their counts',
    complexity: perRow,
  })
  async payoutBatches(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
  ): Promise<PayoutBatchConnection> {
    return toConnection(
      await context.core.payoutBatches.list(caller(context), keysetPage(first, after)),
      PayoutBatch.from,
    );
  }

  @Query(() => PayoutBatch, {
    description:
      "One payout batch of the active business and mode, with its counts (NOT_FOUND for another business's or the other mode's)",
  })
  async payoutBatch(
    @Arg('id', () => ID, { description: "The batch's id (UUID, as REST answers it)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<PayoutBatch> {
    return PayoutBatch.from(await context.core.payoutBatches.get(caller(context), id));
  }

  @FieldResolver(() => PayoutConnection, { description: "The batch's payouts, newest first", complexity: perRow })
  async payouts(
    @Root() batch: PayoutBatch,
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
  ): Promise<PayoutConnection> {
    caller(context);
    const page = await context.loaders.payoutsOfBatch.load({
      batchId: batch.id,
      first: first ?? null,
      after: after ?? null,
    });
    return toConnection(page, Payout.from);
  }

  @Mutation(() => CreatePayoutBatchPayload, {
    description:
      'Every item is checked first (errors on input.items.N.field); the total debit fits the balance or nothing is created',
  })
  async createPayoutBatch(
    @Arg('input', { description: 'The batch name and its 1 to 1,000 items' }) input: CreatePayoutBatchInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreatePayoutBatchPayload> {
    const who = caller(context);
    return payloadOf(CreatePayoutBatchPayload, async () => {
      const body = parseInput(createBatchBodySchema, {
        ...definedFields(input),
        items: input.items?.map((item) => definedFields(item)),
      });
      return PayoutBatch.from(await context.core.payoutBatches.create(who, toCreateBatchCommand(body)));
    });
  }
}
