import { ErrorCodeTable, codesOf } from '../shared/errors';

/** What treasury refuses: an end-user's account before its KYC is approved (design section 10). */
export const TREASURY_ERRORS = {
  KYC_REQUIRED: { kind: 'refused', meaning: "The end-user's KYC check is not approved yet" },
} as const satisfies ErrorCodeTable;

export const TreasuryErrorCode = codesOf(TREASURY_ERRORS);

type TreasuryErrors = typeof TREASURY_ERRORS;
declare module '../shared/errors' {
  interface AreaErrorCodes extends TreasuryErrors {}
}
