import { ErrorCode } from '../../domain/shared/errors';
import { LedgerErrorCode } from '../../domain/ledger';
import { PayoutsErrorCode } from '../../domain/payouts';
import { defineUserErrors } from '../shared/payload';

/** What payouts, recipients, quotes and batches refuse that the caller can fix (PayoutErrorCode). */
export const PayoutUserErrors = defineUserErrors(
  'Payout',
  [
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.NOT_FOUND,
    ErrorCode.CONFLICT,
    LedgerErrorCode.INSUFFICIENT_FUNDS,
    PayoutsErrorCode.INVALID_PIN,
    PayoutsErrorCode.PIN_LOCKED,
    PayoutsErrorCode.PIN_NOT_SET,
    PayoutsErrorCode.SANCTIONS_MATCH,
    ErrorCode.UNSUPPORTED_CURRENCY,
    ErrorCode.UNPROCESSABLE,
  ],
  'payout',
);
