import { ErrorCode } from '../../domain/shared/errors';
import { LedgerErrorCode } from '../../domain/ledger';
import { TreasuryErrorCode } from '../../domain/treasury';
import { defineUserErrors } from '../shared/payload';

/**
 * What the treasury mutations (end-users, KYC, wallets, deposits, payouts, webhook endpoints)
 * refuse that the caller can fix (TreasuryErrorCode). The product not being enabled, a role, a
 * sandbox helper called live, and idempotency conflicts stay GraphQL errors.
 */
export const TreasuryUserErrors = defineUserErrors(
  'Treasury',
  [
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.NOT_FOUND,
    ErrorCode.CONFLICT,
    LedgerErrorCode.INSUFFICIENT_FUNDS,
    TreasuryErrorCode.KYC_REQUIRED,
    ErrorCode.UNSUPPORTED_CURRENCY,
    ErrorCode.UNPROCESSABLE,
  ],
  'treasury',
);
