import { EventService } from '../events/event.service';
import { AccountKind, LedgerService, PostingLine } from '../ledger';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { EntityRows } from '../shared/rows';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { findOwned, lockOwned } from '../shared/tenancy';
import { UNDISPUTED, disputeTransition } from './dispute.states';
import { DisputeFilters, OpenDisputeCommand, ResolveDisputeCommand } from './payment.commands';
import { Dispute, Payment } from './payment.entities';
import { paymentAllows, paymentTransition } from './payment.states';
import { PaymentStore } from './payment.store';
import { PaymentEvent, disputeResolved, paymentDisputed } from './payments.events';
import { SettlementService } from './settlement.service';

/**
 * Disputes (chargebacks), opened and resolved with the sandbox helpers: opening debits the charge
 * amount still captured plus the non-refundable fee from the wallet at once; won re-credits the
 * amount (never the fee), lost changes nothing further.
 */
export class DisputeService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly events: EventService,
    private readonly store: PaymentStore,
    private readonly settlements: SettlementService,
  ) {}

  /** Sandbox helper: the cardholder disputes a captured payment (an unsettled one settles first, as it would have long before). */
  async open(ctx: RequestContext, command: OpenDisputeCommand): Promise<{ payment: Payment; dispute: Dispute }> {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    // A payment settling in another currency settles (if it has not yet), and pays the dispute out of
    // that wallet, at the FX rates of now, asked before the transaction.
    const found = await this.store.find(ctx, command.paymentId);
    const rate = await this.settlements.rateFor(ctx, found);
    const returnRate = rate && (await this.settlements.returnRateFor(ctx, found));
    return inTransaction(ctx, async (tx) => {
      let payment = await this.store.lockOwned(tx, command.paymentId);
      const earlier = await tx
        .repo(Dispute)
        .findOne({ select: { status: true }, where: { paymentId: payment.id }, order: { createdAt: 'DESC' } });
      const status = disputeTransition(earlier?.status ?? UNDISPUTED, 'open');
      if (paymentAllows(payment.status, 'settle')) payment = await this.settlements.settle(tx, payment, rate);
      paymentTransition(payment.status, 'dispute');
      const amount = payment.amount - payment.amountRefunded;
      const fee = (await this.store.settingsOf(tx)).disputeFeeMinor;
      const dispute = await tx.repo(Dispute).save(
        tx.repo(Dispute).create({
          businessId: payment.businessId,
          livemode: payment.livemode,
          paymentId: payment.id,
          amount,
          fee,
          currency: payment.currency,
          reason: command.reason ?? 'fraudulent',
          status,
        }),
      );
      const reserve = await this.ledger.account(tx, { kind: AccountKind.DISPUTE_RESERVE, currency: payment.currency });
      const fees = await this.ledger.account(tx, { kind: AccountKind.FEES_REVENUE, currency: payment.currency });
      const lines: PostingLine[] = [
        ...(await this.settlements.settledWalletDebit(tx, payment, amount + fee, returnRate)),
        { account: reserve, amount },
      ];
      if (fee > 0n) lines.push({ account: fees, amount: fee });
      await this.ledger.move(tx, {
        kind: 'dispute_opened',
        referenceType: 'dispute',
        referenceId: dispute.id,
        description: 'Dispute opened',
        lines,
      });
      await this.store.persist(tx, payment, { amountDisputed: amount });
      await this.events.record(tx, PaymentEvent.DISPUTED, paymentDisputed(payment, dispute));
      this.store.announce(tx, payment, payment.status, ['amountDisputed', 'disputes']);
      return { payment, dispute };
    });
  }

  /** Sandbox helper: resolves an open dispute. Won re-credits the charge amount (not the fee); lost changes nothing further. */
  async resolve(ctx: RequestContext, command: ResolveDisputeCommand): Promise<{ payment: Payment; dispute: Dispute }> {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    const { won } = command;
    // Won: the amount goes back to the wallet the payment settled into, converted at the FX rate of now
    // when that is another currency (asked before the transaction).
    const rate = won
      ? await this.settlements.rateFor(
          ctx,
          await this.store.find(ctx, (await findOwned(ctx, Dispute, command.disputeId, 'Dispute')).paymentId),
        )
      : null;
    return inTransaction(ctx, async (tx) => {
      const found = await findOwned(tx, Dispute, command.disputeId, 'Dispute');
      const payment = await this.store.lock(tx, found.paymentId);
      const dispute = await lockOwned(tx, Dispute, found.id, 'Dispute');
      const status = disputeTransition(dispute.status, won ? 'win' : 'lose');
      const reserve = await this.ledger.account(tx, { kind: AccountKind.DISPUTE_RESERVE, currency: dispute.currency });
      const destination: PostingLine[] = won
        ? (await this.settlements.settledWalletCredit(tx, payment, dispute.amount, rate)).lines
        : [
            {
              account: await this.ledger.account(tx, {
                kind: AccountKind.PROVIDER_CLEARING,
                currency: dispute.currency,
              }),
              amount: dispute.amount,
            },
          ];
      await this.ledger.move(tx, {
        kind: won ? 'dispute_won' : 'dispute_lost',
        referenceType: 'dispute',
        referenceId: dispute.id,
        description: won
          ? 'Dispute won: charge amount re-credited'
          : 'Dispute lost: charge amount returned to the cardholder',
        lines: [{ account: reserve, amount: -dispute.amount }, ...destination],
      });
      dispute.status = status;
      dispute.resolvedAt = new Date();
      await tx.repo(Dispute).save(dispute);
      await this.store.persist(tx, payment, won ? { amountDisputed: 0n } : {});
      await this.events.record(
        tx,
        won ? PaymentEvent.DISPUTE_WON : PaymentEvent.DISPUTE_LOST,
        disputeResolved(payment, dispute, won),
      );
      this.store.announce(tx, payment, payment.status, won ? ['amountDisputed', 'disputes'] : ['disputes']);
      return { payment, dispute };
    });
  }

  async get(ctx: RequestContext, disputeId: string): Promise<Dispute> {
    ctx.requireRole(...ALL_ROLES);
    return findOwned(ctx, Dispute, disputeId, 'Dispute');
  }

  /** Disputes of the business and mode, newest first; the cursor of a keyset page carries the status filter. */
  async list(ctx: RequestContext, filters: DisputeFilters, page: PageQuery): Promise<ListPage<Dispute>> {
    ctx.requireRole(...ALL_ROLES);
    const disputes = newestFirst(ctx, Dispute, 'dispute');
    if (filters.status) disputes.andWhere('dispute.status = :status', { status: filters.status });
    return paginate(disputes, 'dispute', page, { status: filters.status });
  }

  /** The disputes of these payments of the context's business and mode, oldest first. */
  async ofPayments(ctx: RequestContext, paymentIds: string[]): Promise<Dispute[]> {
    if (paymentIds.length === 0) return [];
    return EntityRows.of(ctx, Dispute).select(
      ctx,
      'dispute',
      'WHERE dispute.payment_id = ANY($1::uuid[]) AND dispute.business_id = $2 AND dispute.livemode = $3 ORDER BY dispute.created_at ASC',
      [paymentIds, ctx.requireBusiness(), ctx.livemode],
    );
  }
}
