import { ErrorCode } from '../../domain/shared/errors';
import { defineUserErrors } from '../shared/payload';

/** What payouts, recipients, quotes and batches refuse that the caller can fix (PayoutErrorCode). */
export const PayoutUserErrors = defineUserErrors(
  'Payout',
  [
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.NOT_FOUND,
    ErrorCode.CONFLICT,
    ErrorCode.INSUFFICIENT_FUNDS,
    ErrorCode.INVALID_PIN,
    ErrorCode.PIN_LOCKED,
    ErrorCode.PIN_NOT_SET,
    ErrorCode.SANCTIONS_MATCH,
    ErrorCode.UNSUPPORTED_CURRENCY,
    ErrorCode.UNPROCESSABLE,
  ],
  'payout',
);
