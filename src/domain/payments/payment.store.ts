import { TesseraPubSub } from '../events/pubsub';
import { PaymentChange, PaymentTopic } from './payments.topics';
import { BusinessSettings } from '../shared/business-settings.entity';
import { RequestContext } from '../shared/context';
import { DomainError, ErrorCode } from '../shared/errors';
import { entityFromRow } from '../shared/rows';
import { findOwned, lockOwned } from '../shared/tenancy';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { VaultedCard } from '../../providers/card-acquirer/port';
import { Payment, PaymentStatus } from './payment.entities';
import { PaymentAction, paymentMoves, paymentTransition } from './payment.states';

/** A field of the payment a change sets: a column, or its list of refunds or disputes. */
export type PaymentChangedField = Exclude<keyof Payment, 'updatedAt'> | 'refunds' | 'disputes';

/**
 * What the payment services share about the payment row: reading and locking it for its
 * business and mode, writing a change, telling subscribers, and the business's fee settings.
 */
export class PaymentStore {
  constructor(private readonly pubSub: TesseraPubSub) {}

  /** The context's payment, or NOT_FOUND ("Payment not found") for another tenant's or a non-uuid id. */
  find(ctx: RequestContext, paymentId: string): Promise<Payment> {
    return findOwned(ctx, Payment, paymentId, 'Payment');
  }

  /** The context's payment, locked until the transaction ends. */
  lockOwned(tx: RequestContext, paymentId: string): Promise<Payment> {
    return lockOwned(tx, Payment, paymentId, 'Payment');
  }

  /** A payment already known to exist (a job's, a dispute's), locked until the transaction ends. */
  lock(tx: RequestContext, paymentId: string): Promise<Payment> {
    return tx
      .repo(Payment)
      .createQueryBuilder('payment')
      .setLock('pessimistic_write')
      .where('payment.id = :id', { id: paymentId })
      .getOneOrFail();
  }

  /**
   * Moves a payment by `action` and writes `changes` (values, or SQL expressions of the row's own
   * columns) in one `UPDATE ... WHERE status IN (the statuses the action leaves) RETURNING *`: no
   * read and lock first, the UPDATE's row lock orders it with a concurrent answer. When no row
   * moved, the payment is read to refuse with the CONFLICT paymentTransition gives for its status.
   */
  async advance(
    tx: RequestContext,
    paymentId: string,
    action: PaymentAction,
    changes: QueryDeepPartialEntity<Payment>,
  ): Promise<Payment> {
    const moves = paymentMoves(action);
    const status = `CAST(CASE status ${moves.map(([from, to]) => `WHEN '${from}' THEN '${to}'`).join(' ')} END AS payment_status)`;
    // Hand-written rather than TypeORM's update builder (its share of a charge's CPU): values go
    // through the driver's preparePersistentValue as the builder's do; functions are SQL of the row's columns.
    const { metadata } = tx.repo(Payment);
    const params: unknown[] = [paymentId, ...moves.map(([from]) => from)];
    const sets = Object.entries({ ...changes, status: () => status, updatedAt: new Date() }).map(
      ([property, value]) => {
        const column = metadata.findColumnWithPropertyName(property);
        if (!column) throw new Error(`Payment has no column ${property}`);
        const sql =
          typeof value === 'function'
            ? value()
            : `$${params.push(metadata.connection.driver.preparePersistentValue(value, column))}`;
        return `"${column.databaseName}" = ${sql}`;
      },
    );
    const raw: unknown = await tx.em.query(
      `UPDATE payments SET ${sets.join(', ')} WHERE id = $1 AND status IN (${moves.map((_, index) => `$${index + 2}`).join(', ')}) RETURNING *`,
      params,
    );
    // TypeORM answers an UPDATE with [rows, count].
    const [row] = (raw as [Array<Record<string, unknown>>, number])[0];
    if (row) return entityFromRow(tx, Payment, row);
    const current = await tx.repo(Payment).findOneOrFail({ where: { id: paymentId } });
    paymentTransition(current.status, action);
    throw new DomainError(ErrorCode.CONFLICT, `The payment is ${current.status}`);
  }

  /** Writes the changes to a locked payment (one UPDATE, no reload) and applies them to the object. */
  async persist(tx: RequestContext, payment: Payment, changes: Partial<Payment>): Promise<void> {
    const update = { ...changes, updatedAt: new Date() };
    await tx.repo(Payment).update({ id: payment.id }, update as never);
    Object.assign(payment, update);
  }

  /**
   * Tells the payment's subscribers, once the transaction has committed, what changed: the status
   * it had before (null for a payment created in this transaction) and the fields this change set.
   * Each change is told once.
   */
  announce(
    tx: RequestContext,
    payment: Payment,
    previousStatus: PaymentStatus | null,
    changedFields: readonly PaymentChangedField[],
  ): void {
    const change: PaymentChange = {
      businessId: payment.businessId,
      livemode: payment.livemode,
      paymentId: payment.id,
      previousStatus,
      changedFields: [...changedFields],
    };
    tx.afterCommit(() => this.pubSub.publish(PaymentTopic.PAYMENT, change));
  }

  /** Tells the payment's subscribers it was created: every field it was created with. */
  announceCreated(tx: RequestContext, payment: Payment): void {
    const set = Object.entries(payment)
      .filter(([field, value]) => value !== null && value !== undefined && field !== 'updatedAt')
      .map(([field]) => field);
    this.announce(tx, payment, null, set as PaymentChangedField[]);
  }

  /** Every business gets both modes' settings when it is created. */
  settingsOf(ctx: RequestContext): Promise<BusinessSettings> {
    return ctx
      .repo(BusinessSettings)
      .findOneOrFail({ where: { businessId: ctx.requireBusiness(), livemode: ctx.livemode } });
  }
}

/** The card fee of an amount: basis points (rounded half up) plus the fixed part. */
export function cardFee(amount: bigint, settings: Pick<BusinessSettings, 'cardFeeBps' | 'cardFeeFixedMinor'>): bigint {
  return (amount * BigInt(settings.cardFeeBps) + 5_000n) / 10_000n + settings.cardFeeFixedMinor;
}

/** The card a payment was made with, as the acquirer knows it. */
export function vaultedOf(payment: Payment): VaultedCard {
  return {
    providerRef: payment.cardProviderRef,
    brand: payment.cardBrand,
    last4: payment.cardLast4,
    bin: '',
    expiryMonth: payment.cardExpiryMonth,
    expiryYear: payment.cardExpiryYear,
    fingerprint: payment.cardFingerprint,
    country: payment.cardCountry,
  };
}
