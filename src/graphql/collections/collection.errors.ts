import { ErrorCode } from '../../domain/shared/errors';
import { defineUserErrors } from '../shared/payload';

/** What createCollection and paySandboxCollection refuse that the caller can fix (CollectionErrorCode). */
export const CollectionUserErrors = defineUserErrors(
  'Collection',
  [
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.NOT_FOUND,
    ErrorCode.CONFLICT,
    ErrorCode.UNSUPPORTED_CURRENCY,
    ErrorCode.UNPROCESSABLE,
  ],
  'collection',
);
