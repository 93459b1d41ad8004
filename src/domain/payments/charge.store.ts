import { RequestContext, inTransaction } from '../shared/context';
import { insertReturning } from '../shared/rows';
import { ChargeDedupeClaim, Payment } from './payment.entities';

/** The de-duplication of a charge: its key (null: the charge is not de-duplicated) and window. */
export interface ChargeDedupe {
  key: string | null;
  windowSeconds: number;
  /**
   * Claim the key before anything else is written, rather than with the payment's INSERT: for a
   * charge whose first transaction does what a repeat must not (redeeming a single-use token).
   */
  claimFirst: boolean;
}

/**
 * The charge's hold on its dedupe key in one run of its first transaction. Claimed with the
 * INSERT, `pending` is the claim statement's answer, read once the INSERT has answered.
 */
export class DedupeClaim {
  pending: Promise<boolean> | null = null;

  constructor(
    readonly dedupe: ChargeDedupe,
    readonly first: boolean,
  ) {}
}

/** The claim of a run that did not claim first was recent: the run rolls back, and runs again claiming first. */
class RecentDedupeClaim extends Error {}

/**
 * The charge's first transaction as a unit of work: the payment row and the dedupe claim, sent in
 * as few round trips as the rule allows. The claim goes out with the payment's INSERT, not waited
 * for first: a claim that turns out recent (the same charge within the window, rare) rolls that
 * transaction back unseen, and the transaction runs again claim first, reading the payment it
 * repeats. What the charge decides stays in ChargeService; how its statements travel is here.
 */
export class ChargeStore {
  /**
   * Runs `work` in one transaction with the charge's dedupe claim; `work` runs a second time,
   * claiming first, when the claim it sent with the INSERT turned out recent.
   */
  async transaction<T>(
    ctx: RequestContext,
    dedupe: ChargeDedupe,
    work: (tx: RequestContext, claim: DedupeClaim) => Promise<T>,
  ): Promise<T> {
    const run = (first: boolean) => inTransaction(ctx, (tx) => work(tx, new DedupeClaim(dedupe, first)));
    return run(dedupe.claimFirst).catch((error: unknown) => {
      if (error instanceof RecentDedupeClaim) return run(true);
      throw error;
    });
  }

  /** The payment an earlier run of the request's Idempotency-Key made, if it made one. */
  async madeEarlier(tx: RequestContext): Promise<Payment | null> {
    const earlier = tx.idempotency?.resourceOf('payment');
    if (!earlier) return null;
    return tx
      .repo(Payment)
      .findOne({ where: { id: earlier, businessId: tx.requireBusiness(), livemode: tx.livemode } });
  }

  /**
   * The payment this charge repeats (the same key within the window), or null. A claim made with
   * the INSERT is only sent here: its answer is read by `insert`, which reruns the transaction when
   * the claim was recent, so null then means "none, unless the INSERT says otherwise".
   */
  async repeated(tx: RequestContext, claim: DedupeClaim): Promise<Payment | null> {
    const { key, windowSeconds } = claim.dedupe;
    if (key === null) return null;
    if (!claim.first) {
      claim.pending = this.claimKey(tx, key, windowSeconds);
      claim.pending.catch(() => undefined);
      return null;
    }
    if (await this.claimKey(tx, key, windowSeconds)) return null;
    const existing = await tx
      .repo(Payment)
      .createQueryBuilder('payment')
      .where('payment.business_id = :businessId AND payment.livemode = :livemode AND payment.dedupe_key = :key', {
        businessId: tx.requireBusiness(),
        livemode: tx.livemode,
        key,
      })
      .andWhere(`payment.created_at > now() - make_interval(secs => :window)`, { window: windowSeconds })
      .orderBy('payment.created_at', 'DESC')
      .getOne();
    if (existing) return existing;
    await this.renewClaim(tx, key);
    return null;
  }

  /**
   * Writes a new payment and returns it as stored. Given `customerEmail`, the payment is linked to
   * the business's customer with that email, if there is one, looked up inside the INSERT: one
   * round trip, where a read and then a write made two in every charge's transaction.
   */
  async insert(
    tx: RequestContext,
    claim: DedupeClaim,
    fields: Partial<Payment>,
    customerEmail: string | null,
  ): Promise<Payment> {
    const inserted =
      customerEmail === null
        ? insertReturning(tx, Payment, fields)
        : insertReturning(tx, Payment, fields, {
            customerId: (bind) =>
              `(SELECT id FROM customers WHERE business_id = ${bind(fields.businessId)} AND livemode = ${bind(fields.livemode)} AND email = ${bind(customerEmail)})`,
          });
    const payment = await inserted.catch(async (error: unknown) => {
      // A failed claim aborts the transaction, so the INSERT after it answers "current transaction
      // is aborted": the claim's own error is the cause to report.
      if (claim.pending) await claim.pending;
      throw error;
    });
    if (claim.pending && !(await claim.pending)) throw new RecentDedupeClaim();
    return payment;
  }

  /** Forgets dedupe claims past the window (housekeeping); returns how many. */
  async purgeDedupeClaims(ctx: RequestContext, windowSeconds: number): Promise<number> {
    const { affected } = await ctx
      .repo(ChargeDedupeClaim)
      .createQueryBuilder()
      .delete()
      .where('claimed_at <= now() - make_interval(secs => :window)', { window: windowSeconds })
      .execute();
    return affected ?? 0;
  }

  /**
   * Claims the key for this transaction, in one statement where a lock and a read made two: true
   * when the key's last claim is older than `windowSeconds` (or there is none), and the claim is now
   * this transaction's; false when it is recent, and so a payment with the key may be in the window.
   * Either way the claim row stays locked until this transaction ends, so a concurrent identical
   * charge waits, then sees what this one did. A claim's time is its payment's `created_at` (the
   * same transaction's now()), so an expired claim means no payment with the key in the window.
   */
  private async claimKey(tx: RequestContext, key: string, windowSeconds: number): Promise<boolean> {
    const rows: unknown[] = await tx.em.query(
      `INSERT INTO charge_dedupe_claims (business_id, livemode, dedupe_key, claimed_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (business_id, livemode, dedupe_key) DO UPDATE SET claimed_at = EXCLUDED.claimed_at
        WHERE charge_dedupe_claims.claimed_at <= now() - make_interval(secs => $4)
       RETURNING 1`,
      [tx.requireBusiness(), tx.livemode, key, windowSeconds],
    );
    return rows.length > 0;
  }

  /** Moves a recent claim to this transaction's payment, when the payment it was made for is no longer in the window. */
  private async renewClaim(tx: RequestContext, key: string): Promise<void> {
    await tx.em.query(
      `UPDATE charge_dedupe_claims SET claimed_at = greatest(claimed_at, now()) WHERE business_id = $1 AND livemode = $2 AND dedupe_key = $3`,
      [tx.requireBusiness(), tx.livemode, key],
    );
  }
}
