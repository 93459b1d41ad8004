import { ErrorCode } from '../../domain/shared/errors';
import { defineUserErrors } from '../shared/payload';

/** What /v1's keys and settings refuse that the caller can fix (V1ErrorCode); an unverified business's FORBIDDEN stays an error. */
export const V1UserErrors = defineUserErrors('V1', [ErrorCode.VALIDATION_ERROR], '/v1 key or settings');
