import { ErrorCodeTable, codesOf } from '../shared/errors';

/** What payouts refuse: a party on a sanctions list, and the payout PIN's checks. */
export const PAYOUTS_ERRORS = {
  SANCTIONS_MATCH: { kind: 'forbidden', meaning: 'A party matched a sanctions list' },
  INVALID_PIN: { kind: 'forbidden', meaning: 'The payout PIN is wrong; the message says how many tries are left' },
  PIN_LOCKED: {
    kind: 'exhausted',
    meaning: 'The payout PIN is locked after too many wrong tries; the message says when it unlocks',
  },
  PIN_NOT_SET: { kind: 'refused', meaning: 'The operation needs the payout PIN and the business has none set' },
} as const satisfies ErrorCodeTable;

export const PayoutsErrorCode = codesOf(PAYOUTS_ERRORS);

type PayoutsErrors = typeof PAYOUTS_ERRORS;
declare module '../shared/errors' {
  interface AreaErrorCodes extends PayoutsErrors {}
}
