import { Role } from '../shared/modes';
import { ALL_ROLES, RequestContext, inTransaction } from '../shared/context';
import { hashPassword, verifyPassword } from '../shared/crypto';
import { DomainError, ErrorCode, FieldErrors, validationError } from '../shared/errors';
import { PayoutsErrorCode } from './payouts.errors';
import { entityFromRow } from '../shared/rows';
import { PayoutPinStatus, SetPayoutPinCommand } from './payout-pin.commands';
import { PayoutPin, PayoutPinFailure } from './payout-pin.entity';
import {
  MAX_BUSINESS_PIN_FAILURES,
  MAX_PIN_FAILURES,
  MIN_BUSINESS_LOCK_CREDENTIALS,
  PIN_FORMAT,
  PIN_FORMAT_MESSAGE,
  PIN_LOCK_SECONDS,
} from './payout-pin.settings';

/** The outcome of one PIN check, decided (and its bookkeeping committed) before anything is thrown. */
type PinCheck =
  | { kind: 'right' }
  | { kind: 'wrong'; triesLeft: number; lockedUntil: Date | null }
  | { kind: 'locked'; until: Date; scope: LockScope }
  | { kind: 'not-set' };

/** What a passed `verify` hands to `confirm`: which business's PIN, as it was set when checked. */
export interface PinProof {
  businessId: string;
  pinSetAt: Date;
}

/** What a lock applies to: the credential that made the wrong tries, or the whole business. */
type LockScope = 'credential' | 'business';

type FailedCheck = Exclude<PinCheck, { kind: 'right' }>;

/** What a `set` transaction ends with; its errors are thrown after it commits, so a counted wrong try stays counted. */
type SetOutcome = FailedCheck | { kind: 'invalid'; errors: FieldErrors } | { kind: 'set'; pin: PayoutPin };

const LOCK_MINUTES = PIN_LOCK_SECONDS / 60;

const pinNotSet = () =>
  new DomainError(PayoutsErrorCode.PIN_NOT_SET, 'No payout PIN is set for this business; an OWNER must set one first');

const pinLocked = (until: Date, scope: LockScope) =>
  new DomainError(
    PayoutsErrorCode.PIN_LOCKED,
    scope === 'credential'
      ? `The payout PIN is locked for this credential after ${MAX_PIN_FAILURES} wrong attempts; try again after ${until.toISOString()}`
      : `The payout PIN is locked for the whole business after ${MAX_BUSINESS_PIN_FAILURES} wrong attempts from several credentials; ` +
          `try again after ${until.toISOString()}`,
  );

const invalidPin = (triesLeft: number, lockedUntil: Date | null) =>
  new DomainError(
    PayoutsErrorCode.INVALID_PIN,
    lockedUntil
      ? `Wrong payout PIN; it is now locked until ${lockedUntil.toISOString()}`
      : `Wrong payout PIN; ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left for this credential before it locks for ${LOCK_MINUTES} minutes`,
  );

/** The error of a check that did not pass. */
function pinError(check: FailedCheck): DomainError {
  switch (check.kind) {
    case 'not-set':
      return pinNotSet();
    case 'locked':
      return pinLocked(check.until, check.scope);
    case 'wrong':
      return invalidPin(check.triesLeft, check.lockedUntil);
  }
}

/** The lock that holds now, if any: the later of the business's and the caller's credential's. */
function lockOf(pin: PayoutPin | null, failures: PayoutPinFailure | null, now = new Date()): Date | null {
  const locks = [pin?.lockedUntil, failures?.lockedUntil].filter((until): until is Date => !!until && until > now);
  return locks.length > 0 ? new Date(Math.max(...locks.map((until) => until.getTime()))) : null;
}

const statusOf = (pin: PayoutPin | null, failures: PayoutPinFailure | null = null): PayoutPinStatus => ({
  isSet: pin !== null,
  lockedUntil: lockOf(pin, failures),
  updatedAt: pin?.updatedAt ?? null,
});

/** Whose wrong PINs these are: an API key (its tokens share it), a dashboard user, or a system caller. */
export function pinCredentialOf(ctx: RequestContext): string {
  switch (ctx.actor.kind) {
    case 'api':
    case 'publishable':
      return `api:${ctx.actor.credentialId}`;
    case 'dashboard':
      return `user:${ctx.actor.userId}`;
    case 'system':
      return `system:${ctx.actor.name}`;
    case 'operator':
      return `operator:${ctx.actor.tokenId}`;
    case 'anonymous':
      return 'anonymous';
  }
}

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
 * checked before payouts are scheduled; wrong PINs lock the credential that sent them, and only
 * wrong PINs from several credentials the business (payout-pin.settings.ts). Clock: the
 * application's, for both writing and reading `lockedUntil`.
 */
export class PayoutPinService {
  /** Whether a PIN is set, and whether it is locked: any member of the business, and its API credentials. */
  async status(ctx: RequestContext): Promise<PayoutPinStatus> {
    ctx.requireRole(...ALL_ROLES);
    const businessId = ctx.requireBusiness();
    const [pin, failures] = await Promise.all([
      ctx.repo(PayoutPin).findOne({ where: { businessId } }),
      ctx.repo(PayoutPinFailure).findOne({ where: { businessId, credential: pinCredentialOf(ctx) } }),
    ]);
    return statusOf(pin, failures);
  }

  /**
   * Checks a PIN for an operation that needs one (scheduling payouts, a payout with its PIN):
   * PIN_NOT_SET, PIN_LOCKED, or INVALID_PIN (counted toward the lockout even when the caller then
   * rolls back). A right PIN resets the count, and gives the proof the caller's writing transaction
   * hands to `confirm`. The caller's own permission rules apply before it calls this.
   */
  async verify(ctx: RequestContext, pin: string): Promise<PinProof> {
    const businessId = ctx.requireBusiness();
    if (!PIN_FORMAT.test(pin)) throw validationError({ pin: [PIN_FORMAT_MESSAGE] });
    const { row, check } = await inOwnTransaction(ctx, async (tx) => {
      const locked = await lockPin(tx, businessId);
      return { row: locked, check: await this.check(tx, locked, pin) };
    });
    if (check.kind !== 'right') throw pinError(check);
    return { businessId, pinSetAt: row!.updatedAt };
  }

  /**
   * Inside the transaction that does what the PIN allowed (a payout's debit, a schedule's write):
   * holds the PIN row (FOR SHARE, until that transaction ends) and refuses when it is no longer the
   * PIN `verify` checked, or a lock has fallen on the business since. Between the check and the
   * write another request may change the PIN or lock it; the write then does not happen.
   */
  async confirm(tx: RequestContext, proof: PinProof): Promise<void> {
    const pin = await tx
      .repo(PayoutPin)
      .findOne({ where: { businessId: proof.businessId }, lock: { mode: 'pessimistic_read' } });
    if (!pin) throw pinNotSet();
    if (pin.lockedUntil && pin.lockedUntil > new Date()) throw pinLocked(pin.lockedUntil, 'business');
    if (pin.updatedAt.getTime() !== proof.pinSetAt.getTime())
      throw new DomainError(
        ErrorCode.CONFLICT,
        'The payout PIN was changed while this request was checked; nothing was written, try again with the new PIN',
      );
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
        const inserted = await tx
          .repo(PayoutPin)
          .createQueryBuilder()
          .insert()
          .values({ businessId, pinHash, failedAttempts: 0, lockedUntil: null })
          .orIgnore()
          .returning('*')
          .execute();
        const [row] = inserted.raw as Record<string, unknown>[];
        if (row) return { kind: 'set', pin: entityFromRow(tx, PayoutPin, row) };
        // Another first set committed meanwhile: this one is now a change, and needs currentPin.
        current = await lockPin(tx, businessId);
      }
      const { currentPin } = command;
      const errors: FieldErrors = pinValid ? {} : { pin: [PIN_FORMAT_MESSAGE] };
      if (current && currentPin === null) errors.currentPin = ['is required to change the PIN that is set'];
      else if (current && currentPin !== null && !PIN_FORMAT.test(currentPin)) errors.currentPin = [PIN_FORMAT_MESSAGE];
      if (!current || !pinHash || currentPin === null || Object.keys(errors).length > 0)
        return { kind: 'invalid', errors };
      const check = await this.check(tx, current, currentPin);
      if (check.kind !== 'right') return check;
      await tx
        .repo(PayoutPin)
        .update({ businessId }, { pinHash, failedAttempts: 0, lockedUntil: null, updatedAt: new Date() });
      await tx.repo(PayoutPinFailure).delete({ businessId });
      return { kind: 'set', pin: await tx.repo(PayoutPin).findOneByOrFail({ businessId }) };
    });
    if (outcome.kind === 'set') return statusOf(outcome.pin);
    throw outcome.kind === 'invalid' ? validationError(outcome.errors) : pinError(outcome);
  }

  /**
   * Compares `candidate` with the PIN of a row the transaction has locked (which serialises every
   * check of the business), and records the result for the caller's credential and the business:
   * the MAX_PIN_FAILURES-th consecutive wrong PIN of a credential locks that credential; the
   * MAX_BUSINESS_PIN_FAILURES-th of the business locks the business, when the wrong PINs came from
   * at least MIN_BUSINESS_LOCK_CREDENTIALS credentials (a credential counts while it has wrong PINs
   * or a lock of its own). A lock restarts its count, so its end gives a fresh set of tries. A right
   * PIN clears the business's count and the credential's.
   */
  private async check(tx: RequestContext, pin: PayoutPin | null, candidate: string): Promise<PinCheck> {
    if (!pin) return { kind: 'not-set' };
    const now = new Date();
    if (pin.lockedUntil && pin.lockedUntil > now) return { kind: 'locked', until: pin.lockedUntil, scope: 'business' };
    const key = { businessId: pin.businessId, credential: pinCredentialOf(tx) };
    const failures = await tx.repo(PayoutPinFailure).findOne({ where: key });
    if (failures?.lockedUntil && failures.lockedUntil > now)
      return { kind: 'locked', until: failures.lockedUntil, scope: 'credential' };
    const pins = tx.repo(PayoutPin);
    if (await verifyPassword(candidate, pin.pinHash)) {
      if (pin.failedAttempts > 0 || pin.lockedUntil)
        await pins.update({ businessId: pin.businessId }, { failedAttempts: 0, lockedUntil: null });
      if (failures) await tx.repo(PayoutPinFailure).delete(key);
      return { kind: 'right' };
    }
    const lockEnd = new Date(now.getTime() + PIN_LOCK_SECONDS * 1000);
    const credentialFailures = (failures?.failedAttempts ?? 0) + 1;
    const credentialLock = credentialFailures >= MAX_PIN_FAILURES ? lockEnd : null;
    await tx
      .repo(PayoutPinFailure)
      .upsert({ ...key, failedAttempts: credentialLock ? 0 : credentialFailures, lockedUntil: credentialLock }, [
        'businessId',
        'credential',
      ]);

    const businessFailures = pin.failedAttempts + 1;
    const credentials =
      businessFailures >= MAX_BUSINESS_PIN_FAILURES
        ? await tx
            .repo(PayoutPinFailure)
            .createQueryBuilder('failure')
            .where('failure.business_id = :businessId', { businessId: pin.businessId })
            .andWhere('(failure.failed_attempts > 0 OR failure.locked_until > :now)', { now })
            .getCount()
        : 0;
    const businessLock = credentials >= MIN_BUSINESS_LOCK_CREDENTIALS ? lockEnd : null;
    await pins.update(
      { businessId: pin.businessId },
      { failedAttempts: businessLock ? 0 : businessFailures, lockedUntil: businessLock },
    );
    return {
      kind: 'wrong',
      triesLeft: MAX_PIN_FAILURES - credentialFailures,
      lockedUntil: credentialLock ?? businessLock,
    };
  }
}
