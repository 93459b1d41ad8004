import { EventService } from '../events/event.service';
import { AccountKind, LedgerService, PostingLine } from '../ledger';
import { RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, validationError } from '../shared/errors';
import { positiveMinor, toMajor } from '../shared/money';
import { RefundCommand } from './payment.commands';
import { Payment, PaymentStatus, Refund } from './payment.entities';
import { paymentTransition } from './payment.states';
import { PaymentStore } from './payment.store';
import { PaymentEvent, paymentRefunded } from './payments.events';
import { SettlementService } from './settlement.service';
import { madeEarlier } from '../idempotency';

/** Refunds: money goes back to the cardholder from wherever the payment's money sits (pending or the wallet). */
export class RefundService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly events: EventService,
    private readonly store: PaymentStore,
    private readonly settlements: SettlementService,
  ) {}

  /** Refunds all or part of a captured payment; never more than captured minus refunds and disputes. */
  async refund(ctx: RequestContext, command: RefundCommand): Promise<{ payment: Payment; refund: Refund }> {
    ctx.requireRole(...WRITE_ROLES);
    const earlier = await madeEarlier(ctx, 'refund', Refund);
    if (earlier) return { payment: await this.store.find(ctx, earlier.paymentId), refund: earlier };
    // A payment settled into another currency refunds out of that wallet at the FX rate of now,
    // asked before the transaction (it may settle meanwhile, so asked whatever its status).
    const rate = await this.settlements.returnRateFor(ctx, await this.store.find(ctx, command.paymentId));
    return inTransaction(ctx, async (tx) => {
      const payment = await this.store.lockOwned(tx, command.paymentId);
      paymentTransition(payment.status, 'refund_part');
      const refundable = payment.amount - payment.amountRefunded - payment.amountDisputed;
      const amount = command.amount === undefined ? refundable : positiveMinor(command.amount, payment.currency);
      if (refundable <= 0n) throw new DomainError(ErrorCode.CONFLICT, 'Nothing is left to refund on this payment');
      if (amount > refundable) {
        throw validationError({
          amount: [`must be at most ${toMajor(refundable, payment.currency)} (captured minus refunds and disputes)`],
        });
      }
      const amountRefunded = payment.amountRefunded + amount;
      const status = paymentTransition(
        payment.status,
        amountRefunded === payment.amount ? 'refund_all' : 'refund_part',
      );
      const source: PostingLine[] =
        payment.status === PaymentStatus.SETTLED
          ? await this.settlements.settledWalletDebit(tx, payment, amount, rate)
          : [
              {
                account: await this.ledger.account(tx, {
                  kind: AccountKind.MERCHANT_PENDING,
                  currency: payment.currency,
                  businessId: payment.businessId,
                }),
                amount: -amount,
              },
            ];
      const clearing = await this.ledger.account(tx, {
        kind: AccountKind.PROVIDER_CLEARING,
        currency: payment.currency,
      });
      const refund = await tx.repo(Refund).save(
        tx.repo(Refund).create({
          businessId: payment.businessId,
          livemode: payment.livemode,
          paymentId: payment.id,
          amount,
          currency: payment.currency,
          reason: command.reason ?? null,
        }),
      );
      await tx.idempotency?.recordResource(tx, 'refund', refund.id);
      await this.ledger.move(tx, {
        kind: 'card_refund',
        referenceType: 'refund',
        referenceId: refund.id,
        description: 'Card payment refunded',
        lines: [...source, { account: clearing, amount }],
      });
      const previousStatus = payment.status;
      await this.store.persist(tx, payment, { amountRefunded, status });
      await this.events.record(tx, PaymentEvent.REFUNDED, paymentRefunded(payment, refund));
      this.store.announce(
        tx,
        payment,
        previousStatus,
        status === previousStatus ? ['amountRefunded', 'refunds'] : ['status', 'amountRefunded', 'refunds'],
      );
      return { payment, refund };
    });
  }
}
