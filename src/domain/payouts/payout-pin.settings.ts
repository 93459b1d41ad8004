/**
 * The payout PIN's lockout (design section 8; docs/security.md, Payout PIN), on two levels, each
 * for PIN_LOCK_SECONDS; while locked every check answers PIN_LOCKED, even with the right PIN:
 * - a credential (an API key, a member's dashboard sign-in) is locked after MAX_PIN_FAILURES
 *   consecutive wrong PINs of its own;
 * - the business (every credential) after MAX_BUSINESS_PIN_FAILURES consecutive wrong PINs, from at
 *   least MIN_BUSINESS_LOCK_CREDENTIALS credentials: one credential alone, coming back after each
 *   of its locks, never locks out the business's owners.
 */
export const MAX_PIN_FAILURES = 5;
export const MAX_BUSINESS_PIN_FAILURES = 10;
export const MIN_BUSINESS_LOCK_CREDENTIALS = 2;
export const PIN_LOCK_SECONDS = 15 * 60;

/** A payout PIN is exactly six ASCII digits (not `\d`, which would take other scripts' digits). */
export const PIN_FORMAT = /^[0-9]{6}$/;
export const PIN_FORMAT_MESSAGE = 'must be exactly 6 digits';
