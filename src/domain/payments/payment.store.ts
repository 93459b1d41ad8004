import { TesseraPubSub, Topic } from '../events/pubsub';
import { BusinessSettings } from '../identity/identity.entities';
import { RequestContext } from '../shared/context';
import { findOwned, lockOwned } from '../shared/tenancy';
import type { VaultedCard } from '../../providers/card-acquirer/port';
import { Payment } from './payment.entities';

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
    return tx.repo(Payment).createQueryBuilder('payment').setLock('pessimistic_write').where('payment.id = :id', { id: paymentId }).getOneOrFail();
  }

  /** Writes the changes to a locked payment (one UPDATE, no reload) and applies them to the object. */
  async persist(tx: RequestContext, payment: Payment, changes: Partial<Payment>): Promise<void> {
    const update = { ...changes, updatedAt: new Date() };
    await tx.repo(Payment).update({ id: payment.id }, update as never);
    Object.assign(payment, update);
  }

  /** Tells the payment's subscribers, once the transaction has committed, that it changed. */
  announce(tx: RequestContext, payment: Payment): void {
    const change = { businessId: payment.businessId, livemode: payment.livemode, paymentId: payment.id };
    tx.afterCommit(() => this.pubSub.publish(Topic.PAYMENT, change));
  }

  /** Every business gets both modes' settings when it is created. */
  settingsOf(ctx: RequestContext): Promise<BusinessSettings> {
    return ctx.repo(BusinessSettings).findOneOrFail({ where: { businessId: ctx.requireBusiness(), livemode: ctx.livemode } });
  }
}

/** The card fee of an amount: basis points (rounded half up) plus the fixed part. */
export function cardFee(amount: bigint, settings: Pick<BusinessSettings, 'cardFeeBps' | 'cardFeeFixedMinor'>): bigint {
  return (amount * BigInt(settings.cardFeeBps) + 5_000n) / 10_000n + settings.cardFeeFixedMinor;
}

/** The card a payment was made with, as the acquirer knows it. */
export function vaultedOf(payment: Payment): VaultedCard {
  return {
    providerRef: payment.cardProviderRef, brand: payment.cardBrand, last4: payment.cardLast4, bin: '',
    expiryMonth: payment.cardExpiryMonth, expiryYear: payment.cardExpiryYear, fingerprint: payment.cardFingerprint, country: payment.cardCountry,
  };
}
