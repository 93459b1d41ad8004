import { EventService } from '../events/event.service';
import { AccountKind, LedgerService, PostingLine } from '../ledger';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { isUuid } from '../shared/ids';
import { Mode } from '../shared/modes';
import { EntityRows } from '../shared/rows';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { findOwned, lockOwned } from '../shared/tenancy';
import { UNDISPUTED, disputeTransition } from './dispute.states';
import {
  AcquirerDisputeCommand,
  AcquirerDisputeOutcomeCommand,
  DisputeFilters,
  OpenDisputeCommand,
  ResolveDisputeCommand,
} from './payment.commands';
import { Dispute, DisputeStatus, Payment } from './payment.entities';
import { paymentAllows, paymentTransition } from './payment.states';
import { PaymentStore } from './payment.store';
import { PaymentEvent, disputeResolved, paymentDisputed } from './payments.events';
import { SettlementRate, SettlementService } from './settlement.service';

/**
 * What a dispute the acquirer reported did: opened or resolved it, nothing (Tessera had it so
 * already), or nothing because its payment is none of Tessera's.
 */
export type AcquirerDisputeResult =
  { outcome: 'opened' | 'resolved' | 'unchanged'; dispute: Dispute } | { outcome: 'unknown-payment' };

interface OpeningRates {
  rate: SettlementRate | null;
  returnRate: SettlementRate | null;
}

/**
 * Disputes (chargebacks), opened and resolved with the sandbox helpers, or as the card acquirer
 * reports them (Stripe's `charge.dispute.*`, through the providers' webhooks inbox): opening debits
 * the disputed amount plus the non-refundable fee from the wallet at once; won re-credits the
 * amount (never the fee), lost changes nothing further. Both ways are the same postings and events.
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
    const rates = await this.openingRates(ctx, await this.store.find(ctx, command.paymentId));
    return inTransaction(ctx, async (tx) => {
      const payment = await this.store.lockOwned(tx, command.paymentId);
      return this.openLocked(tx, payment, rates, {
        amount: payment.amount - payment.amountRefunded,
        reason: command.reason ?? 'fraudulent',
        acquirerDisputeId: null,
      });
    });
  }

  /** Sandbox helper: resolves an open dispute. Won re-credits the charge amount (not the fee); lost changes nothing further. */
  async resolve(ctx: RequestContext, command: ResolveDisputeCommand): Promise<{ payment: Payment; dispute: Dispute }> {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    const { won } = command;
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
      return this.resolveLocked(tx, payment, dispute, won, rate);
    });
  }

  /**
   * The card acquirer opened a dispute (Stripe's `charge.dispute.created`): the same opening as the
   * sandbox's, with the acquirer's amount and reason, in the caller's transaction (the inbox's, so
   * the event's mark and the postings commit together). Once per acquirer dispute id: a repeat
   * changes nothing. A payment id that is none of Tessera's answers `unknown-payment`, writing nothing.
   * The FX rates a payment settling in another currency needs are asked inside that transaction:
   * the inbox applies the event in one.
   */
  async openAtAcquirer(ctx: RequestContext, command: AcquirerDisputeCommand): Promise<AcquirerDisputeResult> {
    ctx.requireOperator();
    return inTransaction(ctx, async (system) => {
      const tx = await this.paymentContext(system, command.paymentId);
      if (!tx) return { outcome: 'unknown-payment' };
      const reported = await this.ofAcquirer(tx, command.acquirerDisputeId);
      if (reported) return { outcome: 'unchanged', dispute: reported };
      const rates = await this.openingRates(tx, await this.store.find(tx, command.paymentId));
      const payment = await this.store.lock(tx, command.paymentId);
      // After the payment's lock: a concurrent report of the same dispute has committed, or waits behind this one.
      const known = await this.ofAcquirer(tx, command.acquirerDisputeId);
      if (known) return { outcome: 'unchanged', dispute: known };
      if (command.currency !== payment.currency)
        throw new Error(
          `The acquirer's dispute ${command.acquirerDisputeId} is in ${command.currency}, its payment ${payment.id} in ${payment.currency}`,
        );
      const { dispute } = await this.openLocked(tx, payment, rates, command);
      return { outcome: 'opened', dispute };
    });
  }

  /**
   * The card acquirer decided a dispute (Stripe's `charge.dispute.closed`, won or lost): the
   * sandbox's resolution, once; a dispute already so decided changes nothing. A decision about a
   * dispute Tessera has not heard of yet (the acquirer's events may arrive out of order) opens it
   * first, so the wallet sees the debit and its return as if they came in order.
   */
  async resolveAtAcquirer(ctx: RequestContext, command: AcquirerDisputeOutcomeCommand): Promise<AcquirerDisputeResult> {
    ctx.requireOperator();
    return inTransaction(ctx, async (system) => {
      const opened = await this.openAtAcquirer(system, command);
      if (opened.outcome === 'unknown-payment') return opened;
      const tx = system.forBusiness(opened.dispute.businessId, opened.dispute.livemode ? Mode.LIVE : Mode.TEST);
      const rate = command.won
        ? await this.settlements.rateFor(tx, await this.store.find(tx, opened.dispute.paymentId))
        : null;
      const payment = await this.store.lock(tx, opened.dispute.paymentId);
      const dispute = await lockOwned(tx, Dispute, opened.dispute.id, 'Dispute');
      if (dispute.status === (command.won ? DisputeStatus.WON : DisputeStatus.LOST))
        return { outcome: 'unchanged', dispute };
      return {
        outcome: 'resolved',
        dispute: (await this.resolveLocked(tx, payment, dispute, command.won, rate)).dispute,
      };
    });
  }

  /**
   * A payment settling in another currency settles (if it has not yet), and pays the dispute out of
   * that wallet, at the FX rates of now, asked before the opening's transaction when there is none yet.
   */
  private async openingRates(ctx: RequestContext, payment: Payment): Promise<OpeningRates> {
    const rate = await this.settlements.rateFor(ctx, payment);
    return { rate, returnRate: rate && (await this.settlements.returnRateFor(ctx, payment)) };
  }

  /** Opens a dispute of a locked payment: the dispute row, the debit of amount and fee, the event. */
  private async openLocked(
    tx: RequestContext,
    locked: Payment,
    { rate, returnRate }: OpeningRates,
    opening: { amount: bigint; reason: string; acquirerDisputeId: string | null },
  ): Promise<{ payment: Payment; dispute: Dispute }> {
    let payment = locked;
    const earlier = await tx
      .repo(Dispute)
      .findOne({ select: { status: true }, where: { paymentId: payment.id }, order: { createdAt: 'DESC' } });
    const status = disputeTransition(earlier?.status ?? UNDISPUTED, 'open');
    if (paymentAllows(payment.status, 'settle')) payment = await this.settlements.settle(tx, payment, rate);
    paymentTransition(payment.status, 'dispute');
    const { amount } = opening;
    const fee = (await this.store.settingsOf(tx)).disputeFeeMinor;
    const dispute = await tx.repo(Dispute).save(
      tx.repo(Dispute).create({
        businessId: payment.businessId,
        livemode: payment.livemode,
        paymentId: payment.id,
        amount,
        fee,
        currency: payment.currency,
        reason: opening.reason,
        status,
        acquirerDisputeId: opening.acquirerDisputeId,
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
  }

  /**
   * Resolves a locked dispute of a locked payment. Won: the amount goes back to the wallet the
   * payment settled into, converted at `rate` (rateFor, asked before) when that is another currency.
   */
  private async resolveLocked(
    tx: RequestContext,
    payment: Payment,
    dispute: Dispute,
    won: boolean,
    rate: SettlementRate | null,
  ): Promise<{ payment: Payment; dispute: Dispute }> {
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
  }

  /** The system acting for the business and mode of a payment, or null when no payment has this id. */
  private async paymentContext(system: RequestContext, paymentId: string): Promise<RequestContext | null> {
    if (!isUuid(paymentId)) return null;
    const row = await system
      .repo(Payment)
      .findOne({ select: { businessId: true, livemode: true }, where: { id: paymentId } });
    return row && system.forBusiness(row.businessId, row.livemode ? Mode.LIVE : Mode.TEST);
  }

  /** The dispute the acquirer reported under this id, if Tessera has it. */
  private ofAcquirer(tx: RequestContext, acquirerDisputeId: string): Promise<Dispute | null> {
    return tx.repo(Dispute).findOne({ where: { acquirerDisputeId } });
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
