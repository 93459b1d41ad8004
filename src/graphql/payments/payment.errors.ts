import { ErrorCode } from '../../domain/shared/errors';
import { LedgerErrorCode } from '../../domain/ledger';
import { defineUserErrors } from '../shared/payload';

/**
 * What card payments, refunds, disputes, checkout sessions, payment links, invoices and recurring
 * gifts refuse that the caller can fix (PaymentErrorCode): a field that is not valid, an object
 * not found, a state that does not allow the change, an unsupported currency, or an amount the
 * mode cannot process (UNPROCESSABLE: no card acquirer, a balance the ledger cannot hold).
 */
export const PaymentUserErrors = defineUserErrors(
  'Payment',
  [
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.NOT_FOUND,
    ErrorCode.CONFLICT,
    LedgerErrorCode.INSUFFICIENT_FUNDS,
    ErrorCode.UNSUPPORTED_CURRENCY,
    ErrorCode.UNPROCESSABLE,
  ],
  'payment',
);
