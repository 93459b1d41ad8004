import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { advanceClockBodySchema, toAdvanceClockCommand } from '../../wire/sandbox';
import { parseInput } from '../../wire/validation';
import { GraphQLContext, caller } from '../shared/context';
import { SandboxClock } from './clock.types';

/** The test clock (design section 8; docs/schedules.md), the same operations as /api/v1/business/sandbox/clock. */
@Resolver()
export class SandboxClockResolver {
  @Query(() => SandboxClock, { description: 'Test credentials only (SANDBOX_ONLY in live mode)' })
  async sandboxClock(@Ctx() context: GraphQLContext): Promise<SandboxClock> {
    return SandboxClock.from(await context.core.sandboxClock.state(caller(context)));
  }

  @Mutation(() => SandboxClock, {
    description: 'Moves the test clock forward (1 to 366 days per call) and answers at once with the advance: the schedule runs that fell due fire in background slices, in order, each once (progress in advance; UNPROCESSABLE above 1,000 payouts, CONFLICT while an advance runs)',
  })
  async advanceSandboxClock(@Arg('seconds', () => Int) seconds: number, @Ctx() context: GraphQLContext): Promise<SandboxClock> {
    const command = toAdvanceClockCommand(parseInput(advanceClockBodySchema, { seconds }));
    return SandboxClock.from(await context.core.sandboxClock.advance(caller(context), command));
  }
}
