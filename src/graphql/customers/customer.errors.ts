import { ErrorCode } from '../../domain/shared/errors';
import { defineUserErrors } from '../shared/payload';

/** What customer profiles and saved cards refuse that the caller can fix (CustomerErrorCode). */
export const CustomerUserErrors = defineUserErrors(
  'Customer',
  [ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT, ErrorCode.UNPROCESSABLE],
  'customer',
);
