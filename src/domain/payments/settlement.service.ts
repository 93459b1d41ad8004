import { EventService } from '../events/event.service';
import { Mode } from '../identity/identity.entities';
import { AccountKind } from '../ledger/ledger.entities';
import { LedgerService, PostingLine } from '../ledger/ledger.service';
import { RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { Payment } from './payment.entities';
import { paymentAllows, paymentTransition } from './payment.states';
import { PaymentStore, cardFee } from './payment.store';
import { PaymentEvent, paymentSettled } from './payments.events';

const minBig = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * Settlement: a captured payment's money moves from the merchant's pending balance to its wallet,
 * minus the card fee, after the settlement delay (a job) or at once with the sandbox helper.
 */
export class SettlementService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly events: EventService,
    private readonly store: PaymentStore,
  ) {}

  /** Sandbox helper: settles a captured payment now instead of after the settlement delay. */
  async sandboxSettle(ctx: RequestContext, paymentId: string): Promise<Payment> {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    return inTransaction(ctx, async (tx) => this.settle(tx, await this.store.lockOwned(tx, paymentId)));
  }

  /** The settlement job: a payment not (or no longer) awaiting settlement is left alone. */
  async settleDue(system: RequestContext, paymentId: string): Promise<void> {
    const row = await system.repo(Payment).findOne({ select: { id: true, businessId: true, livemode: true }, where: { id: paymentId } });
    if (!row) return;
    const ctx = system.forBusiness(row.businessId, row.livemode ? Mode.LIVE : Mode.TEST);
    await inTransaction(ctx, async (tx) => {
      const payment = await this.store.lock(tx, paymentId);
      if (paymentAllows(payment.status, 'settle')) await this.settle(tx, payment);
    });
  }

  /**
   * Moves what is left of the capture (minus refunds so far) from pending to the wallet, keeping
   * the fee; the fee never exceeds what settles. The payment must be locked by the caller.
   */
  async settle(tx: RequestContext, payment: Payment): Promise<Payment> {
    const status = paymentTransition(payment.status, 'settle');
    const settling = payment.amount - payment.amountRefunded;
    const fee = minBig(cardFee(payment.amount, await this.store.settingsOf(tx)), settling);
    const net = settling - fee;
    const pending = await this.ledger.account(tx, { kind: AccountKind.MERCHANT_PENDING, currency: payment.currency, businessId: payment.businessId });
    const wallet = await this.ledger.account(tx, { kind: AccountKind.MERCHANT_WALLET, currency: payment.currency, businessId: payment.businessId });
    const fees = await this.ledger.account(tx, { kind: AccountKind.FEES_REVENUE, currency: payment.currency });
    const lines: PostingLine[] = [{ account: pending, amount: -settling }];
    if (net > 0n) lines.push({ account: wallet, amount: net });
    if (fee > 0n) lines.push({ account: fees, amount: fee });
    await this.ledger.move(tx, { kind: 'card_settlement', referenceType: 'payment', referenceId: payment.id, description: 'Card payment settled', lines });
    const settledAt = new Date();
    await this.store.persist(tx, payment, { status, settledAt, feeAmount: fee });
    await this.events.record(tx, PaymentEvent.SETTLED, paymentSettled(payment, { net, fee, gross: settling }, settledAt));
    this.store.announce(tx, payment);
    return payment;
  }
}
