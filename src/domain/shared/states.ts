import { DomainError, ErrorCode } from './errors';

/**
 * An aggregate's state machine as data: for each state, the actions allowed and the state each
 * leads to. Each aggregate declares its table once in `<aggregate>.states.ts`; every status change
 * goes through `assertTransition` (or `moveRow`), so a forbidden one is refused the same way
 * everywhere: a 409 CONFLICT, unless the aggregate's refusal is another error.
 */
export type TransitionTable<S extends string, A extends string> = Readonly<Record<S, Partial<Record<A, S>>>>;

/**
 * The state `action` leads to from `from`; when the table does not allow it, nothing changes and
 * the refusal is thrown: CONFLICT with its message, or its own error where the caller has always
 * seen another one (an answered invitation is NOT_FOUND, a wallet before KYC is KYC_REQUIRED).
 */
export function assertTransition<S extends string, A extends string>(
  table: TransitionTable<S, A>,
  from: S,
  action: A,
  refusal: (from: S, action: A) => string | DomainError = (state, act) =>
    `Cannot ${act.replace(/_/g, ' ')}: it is ${state}`,
): S {
  const to = table[from]?.[action];
  if (to) return to;
  const refused = refusal(from, action);
  throw typeof refused === 'string' ? new DomainError(ErrorCode.CONFLICT, refused) : refused;
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
