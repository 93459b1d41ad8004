/**
 * Sets or changes the business's payout PIN. `currentPin` is needed (and checked like any PIN,
 * counting toward the lockout) only when a PIN is already set; it is ignored on the first set.
 */
export interface SetPayoutPinCommand {
  pin: string;
  currentPin: string | null;
}

/** What anyone of the business may know about its PIN; never the PIN or its hash. */
export interface PayoutPinStatus {
  isSet: boolean;
  /** When a lock from too many wrong PINs ends; null when not locked. */
  lockedUntil: Date | null;
  /** When the PIN was last set or changed; null when never set. */
  updatedAt: Date | null;
}
