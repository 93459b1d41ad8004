import { ErrorCodeTable, codesOf } from '../shared/errors';

/** What a card payment is refused for by the card's side. */
export const PAYMENTS_ERRORS = {
  CARD_DECLINED: { kind: 'declined', meaning: 'The card was declined' },
} as const satisfies ErrorCodeTable;

export const PaymentsErrorCode = codesOf(PAYMENTS_ERRORS);

type PaymentsErrors = typeof PAYMENTS_ERRORS;
declare module '../shared/errors' {
  interface AreaErrorCodes extends PaymentsErrors {}
}
