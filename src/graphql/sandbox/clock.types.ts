import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ClockAdvanceStatus, ClockState, SandboxClockAdvance as ClockAdvance } from '../../domain/sandbox';
import { Node } from '../shared/node';

registerEnumType(ClockAdvanceStatus, {
  name: 'SandboxClockAdvanceStatus',
  description:
    'RUNNING while its due work is being fired in the background, then COMPLETED; REST writes them running, completed',
  valuesConfig: {
    RUNNING: { description: 'The due runs are firing in background slices; another advance meanwhile is CONFLICT' },
    COMPLETED: { description: 'Every due run has fired (or nothing fell due); completedAt says when' },
  },
});

@ObjectType({
  description:
    "An advance of the business's test clock: what fell due, counted before the clock moved, and what has fired",
  implements: Node,
})
export class SandboxClockAdvance extends Node {
  @Field(() => Int, { description: 'How far this advance moved the clock' }) seconds: number;
  @Field(() => ClockAdvanceStatus, { description: 'RUNNING until its due work has fired, then COMPLETED' })
  status: ClockAdvanceStatus;
  @Field(() => Int, { description: 'Scheduled-payout runs that fell due, counted before the clock moved' })
  runsDue: number;
  @Field(() => Int, { description: 'Payouts those runs would create, each run its payload size' }) payoutsDue: number;
  @Field(() => Int, {
    description: 'Runs fired so far; equals runsDue when completed, unless schedules changed meanwhile',
  })
  runsFired: number;
  @Field({ description: "The business's clock time the advance fires the due work up to" }) untilAt: Date;
  @Field({ description: 'When the advance was asked for, in wall-clock time (ISO 8601, UTC)' }) createdAt: Date;
  @Field(() => Date, {
    nullable: true,
    description: 'When its due work had all fired, in wall-clock time (null while RUNNING)',
  })
  completedAt: Date | null;

  static from(advance: ClockAdvance): SandboxClockAdvance {
    const { id, seconds, status, runsDue, payoutsDue, runsFired, untilAt, createdAt, completedAt } = advance;
    return Object.assign(new SandboxClockAdvance(), {
      id,
      seconds,
      status,
      runsDue,
      payoutsDue,
      runsFired,
      untilAt,
      createdAt,
      completedAt,
    });
  }
}

@ObjectType({
  description:
    "The business's test clock: the wall clock plus an offset (test mode only); its id is SandboxClock:<businessId>",
  implements: Node,
})
export class SandboxClock extends Node {
  @Field({ description: "The business's test-mode time: the wall clock plus the offset" }) now: Date;
  @Field(() => Int, { description: 'How far the test clock runs ahead of the wall clock' }) offsetSeconds: number;
  @Field(() => SandboxClockAdvance, {
    nullable: true,
    description: "The business's running advance, or its last one (null before the first)",
  })
  advance: SandboxClockAdvance | null;

  static from(businessId: string, state: ClockState): SandboxClock {
    return Object.assign(new SandboxClock(), {
      id: `SandboxClock:${businessId}`,
      now: state.now,
      offsetSeconds: state.offsetSeconds,
      advance: state.advance && SandboxClockAdvance.from(state.advance),
    });
  }
}

@InputType({ description: 'POST /business/sandbox/clock/advance' })
export class AdvanceSandboxClockInput {
  @Field(() => Int, { description: 'How far to move the test clock forward: 1 to 31,622,400 seconds (366 days)' })
  seconds: number;
}
