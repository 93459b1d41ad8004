import { ErrorCode } from '../../domain/shared/errors';
import { defineUserErrors } from '../shared/payload';

/** What fraud rules and the block list refuse that the caller can fix (FraudErrorCode). */
export const FraudUserErrors = defineUserErrors(
  'Fraud',
  [ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
  'fraud rule or block list',
);
