import { In, Not } from 'typeorm';
import { ALL_ROLES, RequestContext } from '../shared/context';
import { EntityRows } from '../shared/rows';
import { isUuid } from '../shared/ids';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { ChargeService } from './charge.service';
import { DisputeService } from './dispute.service';
import { PaymentFilters } from './payment.commands';
import { DomainError, ErrorCode, validationError } from '../shared/errors';
import { RefundStatus } from './refund.service';
import { paymentIdRangeOf, referenceDigitsOf } from './payment-reference';
import { Payment, PaymentSource, Refund } from './payment.entities';
import { FINAL_WITHOUT_MONEY } from './payment.states';
import { PaymentVolume, PaymentVolumeQuery, paymentVolume } from './payment-volume';
import { PaymentStore } from './payment.store';
import { SettlementService } from './settlement.service';

export type { ChargeAttempt, FraudScreen } from './charge.service';
export { CHARGE_DEDUPE_WINDOW_SECONDS } from './charge.service';
export { cardFee, vaultedOf } from './payment.store';
export {
  COMPLETE_3DS_TASK,
  PENDING_RECONCILE_AFTER_SECONDS,
  RECONCILE_PENDING_TASK,
  SETTLE_PAYMENT_TASK,
} from './payments.job-names';

/**
 * Payments as the rest of the domain reads them (get, list, the loaders' batch reads), and the one
 * entry other areas and the worker hold: its charge, 3-D Secure and job operations are those of
 * ChargeService and SettlementService, passed through, never a second implementation. The payment
 * aggregates live in charge, settlement, refund and dispute services.
 */
export class PaymentService {
  readonly charge: ChargeService['charge'];
  readonly vaultCard: ChargeService['vaultCard'];
  readonly saveCardForCustomer: ChargeService['saveCardForCustomer'];
  readonly requireCardPayments: ChargeService['requireCardPayments'];
  readonly completeThreeDSecure: ChargeService['completeThreeDSecure'];
  readonly autoCompleteThreeDSecure: ChargeService['autoCompleteThreeDSecure'];
  readonly returnFromAuthentication: ChargeService['returnFromAuthentication'];
  readonly reconcilePending: ChargeService['reconcilePending'];
  readonly settleDue: SettlementService['settleDue'];
  readonly disputesOf: DisputeService['ofPayments'];

  constructor(
    private readonly store: PaymentStore,
    charges: ChargeService,
    settlements: SettlementService,
    disputes: DisputeService,
  ) {
    this.charge = charges.charge.bind(charges);
    this.vaultCard = charges.vaultCard.bind(charges);
    this.saveCardForCustomer = charges.saveCardForCustomer.bind(charges);
    this.requireCardPayments = charges.requireCardPayments.bind(charges);
    this.completeThreeDSecure = charges.completeThreeDSecure.bind(charges);
    this.autoCompleteThreeDSecure = charges.autoCompleteThreeDSecure.bind(charges);
    this.returnFromAuthentication = charges.returnFromAuthentication.bind(charges);
    this.reconcilePending = charges.reconcilePending.bind(charges);
    this.settleDue = settlements.settleDue.bind(settlements);
    this.disputesOf = disputes.ofPayments.bind(disputes);
  }

  async get(ctx: RequestContext, paymentId: string): Promise<Payment> {
    ctx.requireRole(...ALL_ROLES);
    return this.store.find(ctx, paymentId);
  }

  /** Payments of the business and mode, newest first; the cursor of a keyset page carries its filters. */
  async list(ctx: RequestContext, filters: PaymentFilters, page: PageQuery): Promise<ListPage<Payment>> {
    ctx.requireRole(...ALL_ROLES);
    const query = newestFirst(ctx, Payment, 'payment');
    if (filters.status) query.andWhere('payment.status = :status', { status: filters.status });
    if (filters.email) query.andWhere('payment.email = :email', { email: filters.email });
    if (filters.customerId) query.andWhere('payment.customer_id = :customerId', { customerId: filters.customerId });
    if (filters.from) query.andWhere('payment.created_at >= :from', { from: filters.from });
    if (filters.to) query.andWhere('payment.created_at <= :to', { to: filters.to });
    if (filters.reference) {
      const digits = referenceDigitsOf(filters.reference);
      if (!digits)
        throw validationError({ reference: ['must be a payment reference: 12 hex digits such as 3F9AC21B-7E04'] });
      const { low, high } = paymentIdRangeOf(digits);
      query.andWhere('payment.id BETWEEN :low AND :high', { low, high });
    }
    const cursorFilters = {
      status: filters.status,
      reference: filters.reference,
      email: filters.email,
      customerId: filters.customerId,
      from: filters.from?.toISOString(),
      to: filters.to?.toISOString(),
    };
    return paginate(query, 'payment', page, cursorFilters);
  }

  /**
   * The captured volume of the business and mode over [from, to), per currency, in buckets aligned
   * in a time zone (docs/graphql-api.md, Payment volume): any role reads it.
   */
  async volume(ctx: RequestContext, query: PaymentVolumeQuery): Promise<PaymentVolume> {
    ctx.requireRole(...ALL_ROLES);
    return paymentVolume(ctx, query);
  }

  /**
   * The newest payment a source (a checkout session, …) already made or still has in flight, if
   * any: PENDING, REQUIRES_ACTION, COMPLETED or SETTLED (a failed or fully refunded one does not count).
   */
  async takenFor(ctx: RequestContext, source: PaymentSource, sourceId: string): Promise<Payment | null> {
    return newestFirst(ctx, Payment, 'payment')
      .andWhere('payment.source = :source AND payment.source_id = :sourceId', { source, sourceId })
      .andWhere('payment.status NOT IN (:...over)', { over: FINAL_WITHOUT_MONEY })
      .getOne();
  }

  /**
   * The payment the card acquirer knows by `reference` (its id of the payment: Stripe's
   * PaymentIntent), of whichever business: for the acquirer's own events, so an operator's (system)
   * context only. Null when no payment recorded that reference (made before references were kept,
   * or not Tessera's).
   */
  async idOfAcquirerReference(ctx: RequestContext, reference: string): Promise<string | null> {
    ctx.requireOperator();
    const found = await ctx.repo(Payment).findOne({ select: { id: true }, where: { acquirerReference: reference } });
    return found?.id ?? null;
  }

  /** Payments of the caller's business and mode among `ids` (unknown and foreign ids are left out). */
  async byIds(ctx: RequestContext, ids: string[]): Promise<Payment[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return ctx
      .repo(Payment)
      .find({ where: { id: In(valid), businessId: ctx.requireBusiness(), livemode: ctx.livemode } });
  }

  /** The context's refund, or NOT_FOUND for another tenant's or a non-uuid id. */
  async getRefund(ctx: RequestContext, refundId: string): Promise<Refund> {
    ctx.requireRole(...ALL_ROLES);
    // A refund still waiting for the acquirer's answer is not booked: not shown until it is.
    const refund = isUuid(refundId)
      ? await ctx.repo(Refund).findOne({
          where: {
            id: refundId,
            businessId: ctx.requireBusiness(),
            livemode: ctx.livemode,
            status: Not(RefundStatus.PENDING),
          },
        })
      : null;
    if (!refund) throw new DomainError(ErrorCode.NOT_FOUND, 'Refund not found');
    return refund;
  }

  async refundsOf(ctx: RequestContext, paymentIds: string[]): Promise<Refund[]> {
    if (paymentIds.length === 0) return [];
    return EntityRows.of(ctx, Refund).select(
      ctx,
      'refund',
      'WHERE refund.payment_id = ANY($1::uuid[]) AND refund.business_id = $2 AND refund.livemode = $3 AND refund.status <> $4 ORDER BY refund.created_at ASC',
      [paymentIds, ctx.requireBusiness(), ctx.livemode, RefundStatus.PENDING],
    );
  }
}
