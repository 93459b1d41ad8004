import { ErrorCodeTable, codesOf } from '../shared/errors';

/** What the ledger refuses: a move that would take a wallet below zero. */
export const LEDGER_ERRORS = {
  INSUFFICIENT_FUNDS: { kind: 'refused', meaning: 'The debit would take the wallet below zero; nothing was written' },
} as const satisfies ErrorCodeTable;

export const LedgerErrorCode = codesOf(LEDGER_ERRORS);

type LedgerErrors = typeof LEDGER_ERRORS;
declare module '../shared/errors' {
  interface AreaErrorCodes extends LedgerErrors {}
}
