import { EventService } from '../events/event.service';
import { AccountKind, LedgerService, PostingLine } from '../ledger';
import { RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, validationError } from '../shared/errors';
import { Mode } from '../shared/modes';
import { positiveMinor, toMajor } from '../shared/money';
import type { ProviderRegistry } from '../../providers/registry';
import { RefundCommand } from './payment.commands';
import { Payment, PaymentStatus, Refund } from './payment.entities';
import { paymentTransition } from './payment.states';
import { PaymentStore } from './payment.store';
import { PaymentEvent, paymentRefunded } from './payments.events';
import { SettlementRate, SettlementService } from './settlement.service';
import { madeEarlier } from '../idempotency';
import type { RefundFound } from '../../providers/card-acquirer/port';
import { PENDING_REFUND_RECONCILE_AFTER_SECONDS } from './payments.job-names';

/** A refund's status: booked, waiting for the acquirer's answer (nothing booked), or failed at the acquirer afterwards (reversed). */
export const RefundStatus = { SUCCEEDED: 'succeeded', PENDING: 'pending', FAILED: 'failed' } as const;

/**
 * Refunds: money goes back to the cardholder from wherever the payment's money sits (pending or the
 * wallet). A payment the acquirer knows by a reference (Stripe's) is refunded at the acquirer first
 * and booked after its yes (docs/decisions.md, "A refund is booked after the acquirer's yes"); the
 * sandbox's payments have none and are booked at once, in one transaction.
 */
export class RefundService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly events: EventService,
    private readonly store: PaymentStore,
    private readonly settlements: SettlementService,
    private readonly providers: Pick<ProviderRegistry, 'providerFor'>,
  ) {}

  /**
   * Refunds all or part of a captured payment; never more than captured minus refunds (booked or
   * pending at the acquirer) and disputes. At an acquirer: the refund is claimed (pending, its
   * amount held, recorded on the Idempotency-Key) in a first transaction, sent outside any
   * transaction with Tessera's refund id as the acquirer's idempotency key, and booked in a second.
   * The acquirer down: 503 with nothing booked; a retry of the Tessera key sends the same refund
   * again, which the acquirer answers once.
   */
  async refund(ctx: RequestContext, command: RefundCommand): Promise<{ payment: Payment; refund: Refund }> {
    ctx.requireRole(...WRITE_ROLES);
    const earlier = await madeEarlier(ctx, 'refund', Refund);
    if (earlier?.status === RefundStatus.PENDING) return this.sendToAcquirer(ctx, earlier);
    if (earlier) return { payment: await this.store.find(ctx, earlier.paymentId), refund: earlier };
    // A payment settled into another currency refunds out of that wallet at the FX rate of now,
    // asked before the transaction (it may settle meanwhile, so asked whatever its status).
    const rate = await this.settlements.returnRateFor(ctx, await this.store.find(ctx, command.paymentId));
    const claimed = await inTransaction(ctx, async (tx) => {
      const payment = await this.store.lockOwned(tx, command.paymentId);
      paymentTransition(payment.status, 'refund_part');
      const refundable =
        payment.amount - payment.amountRefunded - payment.amountDisputed - (await this.pendingOf(tx, payment));
      const amount = command.amount === undefined ? refundable : positiveMinor(command.amount, payment.currency);
      if (refundable <= 0n) throw new DomainError(ErrorCode.CONFLICT, 'Nothing is left to refund on this payment');
      if (amount > refundable) {
        throw validationError({
          amount: [`must be at most ${toMajor(refundable, payment.currency)} (captured minus refunds and disputes)`],
        });
      }
      const refund = await tx.repo(Refund).save(
        tx.repo(Refund).create({
          businessId: payment.businessId,
          livemode: payment.livemode,
          paymentId: payment.id,
          amount,
          currency: payment.currency,
          reason: command.reason ?? null,
          status: payment.acquirerReference ? RefundStatus.PENDING : RefundStatus.SUCCEEDED,
        }),
      );
      await tx.idempotency?.recordResource(tx, 'refund', refund.id);
      if (payment.acquirerReference) return { refund, booked: null };
      return { refund, booked: await this.book(tx, payment, refund, rate) };
    });
    return claimed.booked ?? this.sendToAcquirer(ctx, claimed.refund, rate);
  }

  /**
   * Refunds left pending (the process died before the acquirer's answer, or the acquirer did not
   * answer, and the merchant never retried the key) resolved by asking the acquirer, never by
   * sending them again (docs/live.md, "When Stripe does not answer"): accepted there, booked by the
   * booking a retry of the key does; refused, cancelled or never received, failed with nothing
   * booked (its amount refundable again). One the acquirer cannot tell about yet (unreachable, a
   * request perhaps still on its way) stays pending for the next sweep. Each refund row is locked
   * and checked still pending, so a concurrent retry of the key books it once. Returns how many it
   * resolved.
   */
  async reconcilePending(
    system: RequestContext,
    olderThanSeconds = PENDING_REFUND_RECONCILE_AFTER_SECONDS,
  ): Promise<number> {
    const stale: Array<{ id: string; business_id: string; livemode: boolean }> = await system.em.query(
      `SELECT id, business_id, livemode FROM refunds WHERE status = $1 AND created_at < now() - make_interval(secs => $2)
       ORDER BY created_at LIMIT 100`,
      [RefundStatus.PENDING, olderThanSeconds],
    );
    let resolved = 0;
    for (const row of stale) {
      const ctx = system.forBusiness(row.business_id, row.livemode ? Mode.LIVE : Mode.TEST);
      const claimed = await ctx.repo(Refund).findOneOrFail({ where: { id: row.id } });
      const payment = await this.store.find(ctx, claimed.paymentId);
      let found: RefundFound | null;
      try {
        found = await this.providers.providerFor(ctx, 'card-acquirer').findRefund({
          refundId: claimed.id,
          paymentReference: payment.acquirerReference!,
          createdAt: claimed.createdAt,
        });
      } catch {
        // Cannot tell now: failing the refund could hide money already given back, so it waits.
        continue;
      }
      const moved =
        found?.outcome === 'refunded'
          ? (await this.bookAnswered(ctx, claimed, found.reference, await this.settlements.returnRateFor(ctx, payment)))
              .moved
          : await this.failPending(ctx, claimed.id);
      if (moved) resolved += 1;
    }
    return resolved;
  }

  /**
   * Stripe (through its webhooks) failed a refund after its yes: the money came back to Tessera's
   * balance at the acquirer, so the refund's posting is reversed, line for line (back to where it
   * was taken from), and the payment's refunded amount goes down. Once per refund, however many
   * events tell it (Stripe sends `refund.updated` and `charge.refund.updated`); a refund not booked
   * (pending, unknown) is left alone. `tx`: the inbox's transaction.
   */
  async reverseFailed(tx: RequestContext, refundId: string): Promise<boolean> {
    const raw: unknown = await tx.em.query(
      `UPDATE refunds SET status = $2 WHERE id = $1 AND status = $3 RETURNING business_id, livemode`,
      [refundId, RefundStatus.FAILED, RefundStatus.SUCCEEDED],
    );
    // TypeORM answers an UPDATE with [rows, count].
    const [row] = (raw as [Array<{ business_id: string; livemode: boolean }>, number])[0];
    if (!row) return false;
    const ctx = tx.forBusiness(row.business_id, row.livemode ? Mode.LIVE : Mode.TEST);
    const refund = await ctx.repo(Refund).findOneOrFail({ where: { id: refundId } });
    const payment = await this.store.lock(ctx, refund.paymentId);
    await this.ledger.reverse(
      ctx,
      { kind: 'card_refund', referenceType: 'refund', referenceId: refund.id },
      { kind: 'card_refund_failure', description: 'Card refund failed at the acquirer: reversed' },
    );
    const previousStatus = payment.status;
    const status = paymentTransition(payment.status, payment.settledAt ? 'refund_reversed_settled' : 'refund_reversed');
    await this.store.persist(ctx, payment, { amountRefunded: payment.amountRefunded - refund.amount, status });
    this.store.announce(
      ctx,
      payment,
      previousStatus,
      status === previousStatus ? ['amountRefunded', 'refunds'] : ['status', 'amountRefunded', 'refunds'],
    );
    return true;
  }

  /** Sends a claimed refund to the payment's acquirer, then books it; refused: marked failed, nothing booked. */
  private async sendToAcquirer(
    ctx: RequestContext,
    claimed: Refund,
    quoted?: SettlementRate | null,
  ): Promise<{ payment: Payment; refund: Refund }> {
    const payment = await this.store.find(ctx, claimed.paymentId);
    const rate = quoted === undefined ? await this.settlements.returnRateFor(ctx, payment) : quoted;
    let reference: string | null;
    try {
      ({ reference } = await this.providers.providerFor(ctx, 'card-acquirer').refund({
        refundId: claimed.id,
        paymentReference: payment.acquirerReference!,
        amount: claimed.amount,
        currency: claimed.currency,
      }));
    } catch (error) {
      // Not answered: the refund stays pending (nothing booked, its amount held) for a retry of the key.
      if (error instanceof DomainError && error.code === ErrorCode.SERVICE_UNAVAILABLE) throw error;
      await this.failPending(ctx, claimed.id);
      if (error instanceof DomainError) throw error;
      throw new DomainError(
        ErrorCode.UNPROCESSABLE,
        `The card acquirer refused the refund: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const { payment: booked, refund } = await this.bookAnswered(ctx, claimed, reference, rate);
    return { payment: booked, refund };
  }

  /**
   * The acquirer's yes to a claimed refund, booked: the refund row locked and, if still pending,
   * marked succeeded with the acquirer's reference and booked, in one transaction. A refund a
   * concurrent retry of the key (or the sweep) settled first is answered as it stands (`moved`: false).
   * The one booking of an answered refund, for the merchant's retry and the recovery sweep alike.
   */
  private async bookAnswered(
    ctx: RequestContext,
    claimed: Refund,
    reference: string | null,
    rate: SettlementRate | null,
  ): Promise<{ payment: Payment; refund: Refund; moved: boolean }> {
    return inTransaction(ctx, async (tx) => {
      const locked = await this.store.lockOwned(tx, claimed.paymentId);
      const [refund]: Refund[] = await tx
        .repo(Refund)
        .createQueryBuilder('refund')
        .setLock('pessimistic_write')
        .where('refund.id = :id', { id: claimed.id })
        .getMany();
      if (refund.status !== RefundStatus.PENDING) return { payment: locked, refund, moved: false };
      await tx.repo(Refund).update({ id: refund.id }, { status: RefundStatus.SUCCEEDED, acquirerReference: reference });
      Object.assign(refund, { status: RefundStatus.SUCCEEDED, acquirerReference: reference });
      return { ...(await this.book(tx, locked, refund, rate)), moved: true };
    });
  }

  /** A pending refund the acquirer refused, or never received: failed, nothing booked, its amount no longer held. */
  private async failPending(ctx: RequestContext, refundId: string): Promise<boolean> {
    const raw: unknown = await inTransaction(ctx, (tx) =>
      tx.em.query(`UPDATE refunds SET status = $2 WHERE id = $1 AND status = $3`, [
        refundId,
        RefundStatus.FAILED,
        RefundStatus.PENDING,
      ]),
    );
    // TypeORM answers an UPDATE with [rows, count].
    return (raw as [unknown[], number])[1] > 0;
  }

  /** Books a refund the acquirer gave (or the sandbox's at once): its posting, the payment's refunded amount, the event. */
  private async book(
    tx: RequestContext,
    payment: Payment,
    refund: Refund,
    rate: SettlementRate | null,
  ): Promise<{ payment: Payment; refund: Refund }> {
    const amount = refund.amount;
    const amountRefunded = payment.amountRefunded + amount;
    const status = paymentTransition(payment.status, amountRefunded === payment.amount ? 'refund_all' : 'refund_part');
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
  }

  /** What refunds of the payment still wait for the acquirer's answer hold of its amount. */
  private async pendingOf(tx: RequestContext, payment: Payment): Promise<bigint> {
    if (!payment.acquirerReference) return 0n;
    const [{ pending }]: Array<{ pending: string }> = await tx.em.query(
      `SELECT coalesce(sum(amount), 0)::text AS pending FROM refunds WHERE payment_id = $1 AND status = $2`,
      [payment.id, RefundStatus.PENDING],
    );
    return BigInt(pending);
  }
}
