import { ErrorCodeTable, codesOf } from '../shared/errors';

/** What a request with an `Idempotency-Key` is refused for: another request holds or held the key. */
export const IDEMPOTENCY_ERRORS = {
  IDEMPOTENCY_KEY_REUSED: {
    kind: 'conflict',
    meaning: 'The idempotency key was used before with a different request',
  },
  IDEMPOTENCY_REQUEST_IN_PROGRESS: {
    kind: 'conflict',
    meaning: 'The first request with this idempotency key is still running; retry later',
  },
  IDEMPOTENCY_REQUEST_INTERRUPTED: {
    kind: 'conflict',
    meaning:
      'The first request with this idempotency key changed data but its answer was never stored: look the result up',
  },
} as const satisfies ErrorCodeTable;

export const IdempotencyErrorCode = codesOf(IDEMPOTENCY_ERRORS);

type IdempotencyErrors = typeof IDEMPOTENCY_ERRORS;
declare module '../shared/errors' {
  interface AreaErrorCodes extends IdempotencyErrors {}
}
