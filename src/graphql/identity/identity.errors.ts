import { ErrorCode } from '../../domain/shared/errors';
import { defineUserErrors } from '../shared/payload';

/**
 * What signUp, confirmSignUp and signIn refuse (AuthErrorCode). They are called without a
 * credential, so UNAUTHORIZED here is the answer to the credentials in the input (signIn: the one
 * answer for an unknown email, a wrong password and a locked account alike), never to the
 * request's own. Every refusal of confirmSignUp is the same VALIDATION_ERROR on `code`, whether or
 * not the address has an account.
 */
export const AuthUserErrors = defineUserErrors(
  'Auth',
  [ErrorCode.VALIDATION_ERROR, ErrorCode.UNAUTHORIZED],
  'sign-up or sign-in',
);

/** What the business's settings, credentials, team and invitations refuse that the caller can fix (AccountErrorCode). */
export const AccountUserErrors = defineUserErrors(
  'Account',
  [ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
  'business account or team',
);
