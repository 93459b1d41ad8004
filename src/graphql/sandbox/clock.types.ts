import { Field, Int, ObjectType } from 'type-graphql';
import { ClockState } from '../../domain/sandbox/clock.service';

@ObjectType({ description: "The business's test clock: the wall clock plus an offset (test mode only)" })
export class SandboxClock {
  @Field({ description: "The business's test-mode time: the wall clock plus the offset" }) now: Date;
  @Field(() => Int, { description: 'How far the test clock runs ahead of the wall clock' }) offsetSeconds: number;

  static from(state: ClockState): SandboxClock {
    return Object.assign(new SandboxClock(), { now: state.now, offsetSeconds: state.offsetSeconds });
  }
}
