import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { SandboxClockAdvance as SandboxClockAdvanceRow } from '../../domain/sandbox';
import { advanceClockBodySchema, toAdvanceClockCommand } from '../../wire/sandbox';
import { parseInput } from '../../wire/validation';
import { notFound } from '../../domain/shared/errors';
import { PayoutUserErrors } from '../payouts/payout.errors';
import { GraphQLContext, caller } from '../shared/context';
import { defineNode } from '../shared/node';
import { Payload, payloadOf } from '../shared/payload';
import { AdvanceSandboxClockInput, SandboxClock, SandboxClockAdvance } from './clock.types';

/** The test clock drives scheduled payouts: its refusals are the payouts area's (PayoutErrorCode). */
export const AdvanceSandboxClockPayload = Payload(
  'AdvanceSandboxClock',
  'sandboxClock',
  () => SandboxClock,
  PayoutUserErrors,
);
export type AdvanceSandboxClockPayload = InstanceType<typeof AdvanceSandboxClockPayload>;

defineNode({
  type: SandboxClockAdvance,
  entity: SandboxClockAdvanceRow,
  load: async (context, id) =>
    SandboxClockAdvance.from(await context.core.sandboxClock.advanceById(caller(context), id)),
});

defineNode({
  type: SandboxClock,
  prefix: 'SandboxClock',
  load: async (context, id) => {
    const who = caller(context);
    if (id !== `SandboxClock:${who.requireBusiness()}`) throw notFound('SandboxClock');
    return SandboxClock.from(who.requireBusiness(), await context.core.sandboxClock.state(who));
  },
});

/** The test clock (design section 8; docs/schedules.md), the same operations as /api/v1/business/sandbox/clock. */
@Resolver()
export class SandboxClockResolver {
  @Query(() => SandboxClock, {
    description: "The business's test clock and its latest advance; test credentials only (SANDBOX_ONLY in live mode)",
  })
  async sandboxClock(@Ctx() context: GraphQLContext): Promise<SandboxClock> {
    const who = caller(context);
    const state = await context.core.sandboxClock.state(who);
    return SandboxClock.from(who.requireBusiness(), state);
  }

  @Mutation(() => AdvanceSandboxClockPayload, {
    description:
      'Moves the test clock forward (1 to 366 days per call) and answers at once with the advance: the schedule runs that fell due fire in background slices, in order, each once (progress in advance; UNPROCESSABLE above 1,000 payouts, CONFLICT while an advance runs)',
  })
  async advanceSandboxClock(
    @Arg('input', { description: 'How far to move the test clock forward' }) input: AdvanceSandboxClockInput,
    @Ctx() context: GraphQLContext,
  ): Promise<AdvanceSandboxClockPayload> {
    const who = caller(context);
    return payloadOf(AdvanceSandboxClockPayload, async () => {
      const command = toAdvanceClockCommand(parseInput(advanceClockBodySchema, { seconds: input.seconds }));
      const state = await context.core.sandboxClock.advance(who, command);
      return SandboxClock.from(who.requireBusiness(), state);
    });
  }
}
