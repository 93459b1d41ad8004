import { DomainError, ErrorCode } from './errors';

/**
 * An aggregate's state machine as data: for each state, the actions allowed and the state each
 * leads to. Each aggregate declares its table once in `<aggregate>.states.ts`; every status change
 * goes through `assertTransition`, so a forbidden one is the same 409 CONFLICT everywhere.
 */
export type TransitionTable<S extends string, A extends string> = Readonly<Record<S, Partial<Record<A, S>>>>;

/** The state `action` leads to from `from`, or CONFLICT (nothing changes) when the table does not allow it. */
export function assertTransition<S extends string, A extends string>(
  table: TransitionTable<S, A>,
  from: S,
  action: A,
  refusal: (from: S, action: A) => string = (state, act) => `Cannot ${act.replace(/_/g, ' ')}: it is ${state}`,
): S {
  const to = table[from]?.[action];
  if (!to) throw new DomainError(ErrorCode.CONFLICT, refusal(from, action));
  return to;
}

/** Every move `action` makes: the states it leaves and the state each leads to. */
export function movesOf<S extends string, A extends string>(
  table: TransitionTable<S, A>,
  action: A,
): Array<[from: S, to: S]> {
  return (Object.keys(table) as S[]).flatMap((from) => {
    const to = table[from][action];
    return to ? [[from, to] as [S, S]] : [];
  });
}
