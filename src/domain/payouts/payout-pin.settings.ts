/**
 * The payout PIN's lockout (design section 8): this many consecutive wrong PINs lock it for
 * PIN_LOCK_SECONDS; while locked every check answers PIN_LOCKED, even with the right PIN.
 */
export const MAX_PIN_FAILURES = 5;
export const PIN_LOCK_SECONDS = 15 * 60;

/** A payout PIN is exactly six ASCII digits (not `\d`, which would take other scripts' digits). */
export const PIN_FORMAT = /^[0-9]{6}$/;
export const PIN_FORMAT_MESSAGE = 'must be exactly 6 digits';
