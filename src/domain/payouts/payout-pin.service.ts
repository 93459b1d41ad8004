import { Role } from '../identity/identity.entities';
import { ALL_ROLES, RequestContext, inTransaction } from '../shared/context';
import { hashPassword, verifyPassword } from '../shared/crypto';
import { DomainError, ErrorCode, FieldErrors, validationError } from '../shared/errors';
import { entityFromRow } from '../shared/rows';
import { PayoutPinStatus, SetPayoutPinCommand } from './payout-pin.commands';
import { PayoutPin } from './payout-pin.entity';
import { MAX_PIN_FAILURES, PIN_FORMAT, PIN_FORMAT_MESSAGE, PIN_LOCK_SECONDS } from './payout-pin.settings';

/** The outcome of one PIN check, decided (and its bookkeeping committed) before anything is thrown. */
type PinCheck =
  | { kind: 'right' }
  | { kind: 'wrong'; triesLeft: number; lockedUntil: Date | null }
  | { kind: 'locked'; until: Date }
  | { kind: 'not-set' };

type FailedCheck = Exclude<PinCheck, { kind: 'right' }>;

/** What a `set` transaction ends with; its errors are thrown after it commits, so a counted wrong try stays counted. */
type SetOutcome = FailedCheck | { kind: 'invalid'; errors: FieldErrors } | { kind: 'set'; pin: PayoutPin };

const LOCK_MINUTES = PIN_LOCK_SECONDS / 60;

const pinNotSet = () => new DomainError(ErrorCode.PIN_NOT_SET, 'No payout PIN is set for this business; an OWNER must set one first');

const pinLocked = (until: Date) => new DomainError(ErrorCode.PIN_LOCKED,
  `The payout PIN is locked after ${MAX_PIN_FAILURES} wrong attempts; try again after ${until.toISOString()}`);

const invalidPin = (triesLeft: number, lockedUntil: Date | null) => new DomainError(ErrorCode.INVALID_PIN, lockedUntil
  ? `Wrong payout PIN; it is now locked until ${lockedUntil.toISOString()}`
  : `Wrong payout PIN; ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left before it locks for ${LOCK_MINUTES} minutes`);

/** The error of a check that did not pass. */
function pinError(check: FailedCheck): DomainError {
  switch (check.kind) {
    case 'not-set': return pinNotSet();
    case 'locked': return pinLocked(check.until);
    case 'wrong': return invalidPin(check.triesLeft, check.lockedUntil);
  }
}

const statusOf = (pin: PayoutPin | null, now = new Date()): PayoutPinStatus => ({
  isSet: pin !== null,
  lockedUntil: pin?.lockedUntil && pin.lockedUntil > now ? pin.lockedUntil : null,
  updatedAt: pin?.updatedAt ?? null,
});

/**
 * PIN checks run in a transaction of their own, never the caller's, for two reasons:
 * - a wrong PIN must stay counted when the caller's transaction rolls back (and a caller that
 *   fails on INVALID_PIN usually does): otherwise every guess would be free;
 * - the pin row is locked FOR UPDATE around the hash comparison, so concurrent guesses are
 *   serialised and each one sees the count the previous one left: ten at once get five tries,
 *   not ten.
 * The detached context carries neither the caller's manager nor its Idempotency-Key claim: the
 * caller's transaction may already hold the claim's row, and entering it again from a second
 * connection would wait on the caller forever. A caller inside a transaction thus holds two
 * pool connections for a moment; callers should check the PIN before they open theirs.
 */
function inOwnTransaction<T>(ctx: RequestContext, work: (tx: RequestContext) => Promise<T>): Promise<T> {
  const detached = new RequestContext(ctx.dataSource, ctx.actor, ctx.businessId, ctx.mode, ctx.origin);
  return inTransaction(detached, work);
}

const lockPin = (tx: RequestContext, businessId: string) =>
  tx.repo(PayoutPin).findOne({ where: { businessId }, lock: { mode: 'pessimistic_write' } });

/**
 * The business's payout PIN (design section 8): one per business for both modes, set by an OWNER,
 * checked before payouts are scheduled; MAX_PIN_FAILURES consecutive wrong PINs lock it for
 * PIN_LOCK_SECONDS. Clock: the application's, for both writing and reading `lockedUntil`.
 */
export class PayoutPinService {
  /** Whether a PIN is set, and whether it is locked: any member of the business, and its API credentials. */
  async status(ctx: RequestContext): Promise<PayoutPinStatus> {
    ctx.requireRole(...ALL_ROLES);
    return statusOf(await ctx.repo(PayoutPin).findOne({ where: { businessId: ctx.requireBusiness() } }));
  }

  /**
   * Checks a PIN for an operation that needs one (scheduling payouts): PIN_NOT_SET, PIN_LOCKED,
   * or INVALID_PIN (counted toward the lockout even when the caller then rolls back). A right PIN
   * resets the count. The caller's own permission rules apply before it calls this.
   */
  async verify(ctx: RequestContext, pin: string): Promise<void> {
    const businessId = ctx.requireBusiness();
    if (!PIN_FORMAT.test(pin)) throw validationError({ pin: [PIN_FORMAT_MESSAGE] });
    const check = await inOwnTransaction(ctx, async (tx) => this.check(tx, await lockPin(tx, businessId), pin));
    if (check.kind !== 'right') throw pinError(check);
  }

  /**
   * Sets the PIN (dashboard OWNER only; API credentials cannot). Changing a PIN already set needs
   * `currentPin`, checked like `verify`. A new PIN clears the failure count and any lock.
   */
  async set(ctx: RequestContext, command: SetPayoutPinCommand): Promise<PayoutPinStatus> {
    ctx.requireDashboardRole(Role.OWNER);
    const businessId = ctx.requireBusiness();
    const pinValid = PIN_FORMAT.test(command.pin);
    // Hashed before the row is locked: scrypt's work need not hold up the business's other checks.
    const pinHash = pinValid ? await hashPassword(command.pin) : null;

    const outcome = await inOwnTransaction(ctx, async (tx): Promise<SetOutcome> => {
      let current = await lockPin(tx, businessId);
      if (!current && pinHash) {
        const inserted = await tx.repo(PayoutPin).createQueryBuilder().insert()
          .values({ businessId, pinHash, failedAttempts: 0, lockedUntil: null }).orIgnore().returning('*').execute();
        const [row] = inserted.raw as Record<string, unknown>[];
        if (row) return { kind: 'set', pin: entityFromRow(tx, PayoutPin, row) };
        // Another first set committed meanwhile: this one is now a change, and needs currentPin.
        current = await lockPin(tx, businessId);
      }
      const { currentPin } = command;
      const errors: FieldErrors = pinValid ? {} : { pin: [PIN_FORMAT_MESSAGE] };
      if (current && currentPin === null) errors.currentPin = ['is required to change the PIN that is set'];
      else if (current && currentPin !== null && !PIN_FORMAT.test(currentPin)) errors.currentPin = [PIN_FORMAT_MESSAGE];
      if (!current || !pinHash || currentPin === null || Object.keys(errors).length > 0) return { kind: 'invalid', errors };
      const check = await this.check(tx, current, currentPin);
      if (check.kind !== 'right') return check;
      await tx.repo(PayoutPin).update({ businessId }, { pinHash, failedAttempts: 0, lockedUntil: null, updatedAt: new Date() });
      return { kind: 'set', pin: await tx.repo(PayoutPin).findOneByOrFail({ businessId }) };
    });
    if (outcome.kind === 'set') return statusOf(outcome.pin);
    throw outcome.kind === 'invalid' ? validationError(outcome.errors) : pinError(outcome);
  }

  /**
   * Compares `candidate` with the PIN of a row the transaction has locked, and records the result:
   * a wrong one counts, and the MAX_PIN_FAILURES-th locks the PIN (the count restarts then, so
   * the lock's end gives a fresh set of tries); a right one clears the count.
   */
  private async check(tx: RequestContext, pin: PayoutPin | null, candidate: string): Promise<PinCheck> {
    if (!pin) return { kind: 'not-set' };
    const now = new Date();
    if (pin.lockedUntil && pin.lockedUntil > now) return { kind: 'locked', until: pin.lockedUntil };
    const repo = tx.repo(PayoutPin);
    if (await verifyPassword(candidate, pin.pinHash)) {
      if (pin.failedAttempts > 0 || pin.lockedUntil) await repo.update({ businessId: pin.businessId }, { failedAttempts: 0, lockedUntil: null });
      return { kind: 'right' };
    }
    const failures = pin.failedAttempts + 1;
    const lockedUntil = failures >= MAX_PIN_FAILURES ? new Date(now.getTime() + PIN_LOCK_SECONDS * 1000) : null;
    await repo.update({ businessId: pin.businessId }, { failedAttempts: lockedUntil ? 0 : failures, lockedUntil });
    return { kind: 'wrong', triesLeft: MAX_PIN_FAILURES - failures, lockedUntil };
  }
}
