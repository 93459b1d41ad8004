import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import {
  PayoutSchedule as PayoutScheduleRow,
  PayoutScheduleChange,
  PayoutScheduleRun as PayoutScheduleRunRow,
  PayoutTopic,
  ScheduleStatus,
} from '../../domain/payouts';
import { notFound } from '../../domain/shared/errors';
import {
  createScheduleBodySchema,
  toCreateScheduleCommand,
  toUpdateScheduleCommand,
  updateScheduleBodySchema,
} from '../../wire/schedules';
import { parseInput } from '../../wire/validation';
import { AFTER_ARG, FIRST_ARG, keysetPage, perRow, toConnection } from '../shared/connection';
import { GraphQLContext, caller, ownedBySubscriber } from '../shared/context';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import {
  CancelPayoutScheduleInput,
  CreatePayoutScheduleInput,
  PausePayoutScheduleInput,
  ResumePayoutScheduleInput,
  UpdatePayoutScheduleInput,
  scheduleBodyOf,
} from './schedule.inputs';
import {
  CancelPayoutSchedulePayload,
  CreatePayoutSchedulePayload,
  PausePayoutSchedulePayload,
  ResumePayoutSchedulePayload,
  UpdatePayoutSchedulePayload,
} from './schedule.payloads';
import {
  PayoutSchedule,
  PayoutScheduleConnection,
  PayoutScheduleRun,
  PayoutScheduleRunConnection,
  PayoutScheduleUpdate,
} from './schedule.types';

defineNode({
  type: PayoutSchedule,
  entity: PayoutScheduleRow,
  load: async (context, id) => PayoutSchedule.from(await context.core.payoutSchedules.get(caller(context), id)),
});
defineNode({
  type: PayoutScheduleRun,
  entity: PayoutScheduleRunRow,
  load: async (context, id) => PayoutScheduleRun.from(await context.core.payoutSchedules.run(caller(context), id)),
});

/**
 * Scheduled payouts for the dashboard (design section 8; docs/schedules.md): the same operations
 * and commands as /api/v1/business/payouts/schedules, inputs checked with the shapes REST uses
 * (src/wire/schedules), the Schedule with REST's fields.
 */
@Resolver(() => PayoutSchedule)
export class PayoutScheduleResolver {
  @Query(() => PayoutScheduleConnection, {
    description: 'Schedules of the active business and mode, newest first',
    complexity: perRow,
  })
  async payoutSchedules(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('status', () => ScheduleStatus, { nullable: true, description: 'Only schedules in this status' })
    status?: ScheduleStatus,
  ): Promise<PayoutScheduleConnection> {
    const page = await context.core.payoutSchedules.list(
      caller(context),
      { status: status ?? undefined },
      keysetPage(first, after),
    );
    return toConnection(page, PayoutSchedule.from);
  }

  @Query(() => PayoutSchedule, {
    description: "One schedule of the active business and mode (NOT_FOUND for another business's or the other mode's)",
  })
  async payoutSchedule(
    @Arg('id', () => ID, { description: "The schedule's id (UUID, as REST answers it)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<PayoutSchedule> {
    return PayoutSchedule.from(await context.core.payoutSchedules.get(caller(context), id));
  }

  @FieldResolver(() => PayoutScheduleRunConnection, {
    description: "The schedule's runs, the latest occurrence first",
    complexity: perRow,
  })
  async runs(
    @Root() schedule: PayoutSchedule,
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
  ): Promise<PayoutScheduleRunConnection> {
    caller(context);
    const page = await context.loaders.runsOfSchedule.load({
      scheduleId: schedule.id,
      first: first ?? null,
      after: after ?? null,
    });
    return toConnection(page, PayoutScheduleRun.from);
  }

  @Mutation(() => CreatePayoutSchedulePayload, {
    description:
      'Freezes the payload, checks the PIN (INVALID_PIN; PIN_LOCKED after 5 wrong from the credential, or 10 from several) and screens every recipient (SANCTIONS_MATCH): ACTIVE',
  })
  async createPayoutSchedule(
    @Arg('input', { description: 'The cadence, the payload each run pays, the caps and the payout PIN' })
    input: CreatePayoutScheduleInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreatePayoutSchedulePayload> {
    const who = caller(context);
    return payloadOf(CreatePayoutSchedulePayload, async () => {
      const command = toCreateScheduleCommand(parseInput(createScheduleBodySchema, scheduleBodyOf(input)));
      return PayoutSchedule.from(await context.core.payoutSchedules.create(who, command));
    });
  }

  @Mutation(() => UpdatePayoutSchedulePayload, {
    description: 'An ACTIVE or PAUSED schedule only (CONFLICT otherwise); a new payload needs the PIN again',
  })
  async updatePayoutSchedule(
    @Arg('input', { description: 'The schedule and the fields to change (absent fields stay)' })
    input: UpdatePayoutScheduleInput,
    @Ctx() context: GraphQLContext,
  ): Promise<UpdatePayoutSchedulePayload> {
    const who = caller(context);
    return payloadOf(UpdatePayoutSchedulePayload, async () => {
      const { id, ...changes } = input;
      const command = toUpdateScheduleCommand(id, parseInput(updateScheduleBodySchema, scheduleBodyOf(changes)));
      return PayoutSchedule.from(await context.core.payoutSchedules.update(who, command));
    });
  }

  @Mutation(() => PausePayoutSchedulePayload, {
    description: 'ACTIVE -> PAUSED (CONFLICT otherwise): no run fires until resumed',
  })
  async pausePayoutSchedule(
    @Arg('input', { description: 'The ACTIVE schedule to pause' }) input: PausePayoutScheduleInput,
    @Ctx() context: GraphQLContext,
  ): Promise<PausePayoutSchedulePayload> {
    const who = caller(context);
    return payloadOf(PausePayoutSchedulePayload, async () =>
      PayoutSchedule.from(await context.core.payoutSchedules.pause(who, input.id)),
    );
  }

  @Mutation(() => ResumePayoutSchedulePayload, {
    description:
      'PAUSED -> ACTIVE at the next future occurrence, missed runs skipped (COMPLETED when none is left); CONFLICT otherwise',
  })
  async resumePayoutSchedule(
    @Arg('input', { description: 'The PAUSED schedule to resume' }) input: ResumePayoutScheduleInput,
    @Ctx() context: GraphQLContext,
  ): Promise<ResumePayoutSchedulePayload> {
    const who = caller(context);
    return payloadOf(ResumePayoutSchedulePayload, async () =>
      PayoutSchedule.from(await context.core.payoutSchedules.resume(who, input.id)),
    );
  }

  @Mutation(() => CancelPayoutSchedulePayload, {
    description: 'ACTIVE or PAUSED -> CANCELLED, for good (CONFLICT otherwise)',
  })
  async cancelPayoutSchedule(
    @Arg('input', { description: 'The ACTIVE or PAUSED schedule to cancel' }) input: CancelPayoutScheduleInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CancelPayoutSchedulePayload> {
    const who = caller(context);
    return payloadOf(CancelPayoutSchedulePayload, async () =>
      PayoutSchedule.from(await context.core.payoutSchedules.cancel(who, input.id)),
    );
  }

  @Subscription(() => PayoutScheduleUpdate, {
    topics: PayoutTopic.PAYOUT_SCHEDULE,
    description:
      "Every change of the subscriber's schedules (one schedule when id is given): created, edited, paused, resumed, cancelled, run, completed; its business and mode only. Each says the status before it and the fields it set",
    filter: ({
      payload,
      args,
      context,
    }: {
      payload: PayoutScheduleChange;
      args: { id?: string };
      context: GraphQLContext;
    }) => ownedBySubscriber(payload, context) && (!args.id || args.id === payload.scheduleId),
  })
  async payoutScheduleUpdated(
    @Root() change: PayoutScheduleChange,
    @Ctx() context: GraphQLContext,
    @Arg('id', () => ID, {
      nullable: true,
      description: "Only this schedule's changes; every schedule of the subscriber's business and mode when omitted",
    })
    _id?: string,
  ): Promise<PayoutScheduleUpdate> {
    caller(context);
    // Through the publication's shared loader (core.payoutSchedules.byIds): one read for every subscriber of this process.
    const schedule = await context.loaders.payoutScheduleById.load(change.scheduleId);
    if (!schedule) throw notFound('Schedule');
    return PayoutScheduleUpdate.of(PayoutSchedule.from(schedule), change);
  }
}
