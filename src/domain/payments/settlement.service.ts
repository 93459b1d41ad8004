import { FxPairNotQuoted, FxRail } from '../../providers/fx/port';
import { ProviderRegistry } from '../../providers/registry';
import { EventService } from '../events/event.service';
import { Mode } from '../shared/modes';
import { AccountKind, LedgerService, PostingLine } from '../ledger';
import { RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { Decimal, formatDecimal } from '../shared/decimal';
import { DomainError, ErrorCode } from '../shared/errors';
import { convertAtRate, costAtRate } from '../shared/fx';
import { Payment, PaymentSource } from './payment.entities';
import { paymentAllows, paymentTransition } from './payment.states';
import { PaymentStore, cardFee } from './payment.store';
import { PaymentEvent, SettlementConversion, paymentSettled } from './payments.events';
import { V1Payment } from './v1-payment.entity';

const minBig = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * The FX fee schedule's rail of a settlement conversion: the one `GET /v1/rates` quotes, so the
 * rate a merchant reads there is the rate its payments settle at in that moment.
 */
export const SETTLEMENT_FX_RAIL: FxRail = 'LOCAL_BANK';

/** The FX provider's rate for a settlement into another currency, quoted before the settling transaction. */
export interface SettlementRate {
  /** The currency the payment settles in. */
  currency: string;
  /** Units of `currency` per unit of the payment's currency, spread included. */
  rate: Decimal;
}

/**
 * Settlement: a captured payment's money moves from the merchant's pending balance to its wallet,
 * minus the card fee, after the settlement delay (a job) or at once with the sandbox helper. A
 * payment that settles in another currency is converted at the FX provider's rate of settlement
 * time (docs/payments.md, Settlement in another currency).
 */
export class SettlementService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly events: EventService,
    private readonly store: PaymentStore,
    private readonly providers: ProviderRegistry,
  ) {}

  /**
   * Why `from` cannot settle in `to` (the FX provider of the context's mode does not quote the
   * pair, or there is none in this mode), or null when it can. An external call: outside any
   * transaction. Any other failure of the provider is thrown as it is.
   */
  async conversionRefusal(ctx: RequestContext, from: string, to: string): Promise<string | null> {
    if (from === to) return null;
    try {
      await this.quote(ctx, from, to);
      return null;
    } catch (error) {
      if (error instanceof FxPairNotQuoted) return FxPairNotQuoted.refusal(from, to);
      if (error instanceof DomainError && error.code === ErrorCode.UNPROCESSABLE)
        return `must be ${from} here, which needs no conversion: ${error.message}`;
      throw error;
    }
  }

  /** Sandbox helper: settles a captured payment now instead of after the settlement delay. */
  async sandboxSettle(ctx: RequestContext, paymentId: string): Promise<Payment> {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    const rate = await this.rateFor(ctx, await this.store.find(ctx, paymentId));
    return inTransaction(ctx, async (tx) => this.settle(tx, await this.store.lockOwned(tx, paymentId), rate));
  }

  /** The settlement job: a payment not (or no longer) awaiting settlement is left alone. */
  async settleDue(system: RequestContext, paymentId: string): Promise<void> {
    const row = await system.repo(Payment).findOne({ where: { id: paymentId } });
    if (!row || !paymentAllows(row.status, 'settle')) return;
    const ctx = system.forBusiness(row.businessId, row.livemode ? Mode.LIVE : Mode.TEST);
    const rate = await this.rateFor(ctx, row);
    await inTransaction(ctx, async (tx) => {
      const payment = await this.store.lock(tx, paymentId);
      if (paymentAllows(payment.status, 'settle')) await this.settle(tx, payment, rate);
    });
  }

  /**
   * The rate a payment settling in another currency settles at, asked of the FX provider now
   * (outside any transaction: the caller settles right after, in its own); null when the payment
   * settles in its own currency.
   */
  async rateFor(ctx: RequestContext, payment: Payment): Promise<SettlementRate | null> {
    const currency = await this.currencyOf(ctx, payment);
    return currency === payment.currency ? null : { currency, rate: await this.quote(ctx, payment.currency, currency) };
  }

  /**
   * For money going back out of a payment after settlement (a refund): the FX provider's rate now
   * from the currency the payment settles in back to its own, or null when it settles in its own.
   * Outside any transaction, like rateFor.
   */
  async returnRateFor(ctx: RequestContext, payment: Payment): Promise<SettlementRate | null> {
    const currency = await this.currencyOf(ctx, payment);
    return currency === payment.currency ? null : { currency, rate: await this.quote(ctx, currency, payment.currency) };
  }

  /**
   * The lines that take `amount` of the payment's currency from the wallet the payment settled
   * into: that wallet directly when it is the payment's currency; else the wallet in the settlement
   * currency pays what buys `amount` at `rate` (returnRateFor; rounded up, costAtRate) through the
   * FX clearing accounts. The caller adds where `amount` goes.
   */
  async settledWalletDebit(
    tx: RequestContext,
    payment: Payment,
    amount: bigint,
    rate: SettlementRate | null,
  ): Promise<PostingLine[]> {
    const settledIn = await this.currencyOf(tx, payment);
    if (settledIn === payment.currency) {
      return [
        {
          account: await this.ledger.account(tx, {
            kind: AccountKind.MERCHANT_WALLET,
            currency: payment.currency,
            businessId: payment.businessId,
          }),
          amount: -amount,
        },
      ];
    }
    if (rate?.currency !== settledIn)
      throw new Error(
        `Payment ${payment.id} settled in ${settledIn}: the return rate must be quoted (returnRateFor) before the transaction`,
      );
    const cost = costAtRate(amount, settledIn, payment.currency, rate.rate);
    return [
      {
        account: await this.ledger.account(tx, {
          kind: AccountKind.MERCHANT_WALLET,
          currency: settledIn,
          businessId: payment.businessId,
        }),
        amount: -cost,
      },
      { account: await this.ledger.account(tx, { kind: AccountKind.FX_CLEARING, currency: settledIn }), amount: cost },
      {
        account: await this.ledger.account(tx, { kind: AccountKind.FX_CLEARING, currency: payment.currency }),
        amount: -amount,
      },
    ];
  }

  /**
   * The lines that credit `amount` of the payment's currency to the wallet the payment settles
   * into: that wallet directly when it is the payment's currency (`converted` null); else `amount`
   * goes to the FX provider and the wallet in the settlement currency receives what `rate` (rateFor)
   * gives, rounded down (convertAtRate), through the FX clearing accounts. Zero lines are left out.
   * The caller adds where `amount` comes from.
   */
  async settledWalletCredit(
    tx: RequestContext,
    payment: Payment,
    amount: bigint,
    rate: SettlementRate | null,
  ): Promise<{ lines: PostingLine[]; converted: bigint | null }> {
    const settleIn = await this.currencyOf(tx, payment);
    if (settleIn === payment.currency) {
      const wallet = await this.ledger.account(tx, {
        kind: AccountKind.MERCHANT_WALLET,
        currency: payment.currency,
        businessId: payment.businessId,
      });
      return { lines: amount > 0n ? [{ account: wallet, amount }] : [], converted: null };
    }
    if (rate?.currency !== settleIn)
      throw new Error(
        `Payment ${payment.id} settles in ${settleIn}: its rate must be quoted (rateFor) before the transaction`,
      );
    const converted = convertAtRate(amount, payment.currency, settleIn, rate.rate);
    const lines: PostingLine[] = [];
    if (amount > 0n)
      lines.push({
        account: await this.ledger.account(tx, { kind: AccountKind.FX_CLEARING, currency: payment.currency }),
        amount,
      });
    if (converted > 0n) {
      lines.push(
        {
          account: await this.ledger.account(tx, { kind: AccountKind.FX_CLEARING, currency: settleIn }),
          amount: -converted,
        },
        {
          account: await this.ledger.account(tx, {
            kind: AccountKind.MERCHANT_WALLET,
            currency: settleIn,
            businessId: payment.businessId,
          }),
          amount: converted,
        },
      );
    }
    return { lines, converted };
  }

  /**
   * Moves what is left of the capture (minus refunds so far) from pending to the wallet, keeping
   * the fee; the fee never exceeds what settles. The payment must be locked by the caller. A
   * payment settling in another currency needs its `rate` (rateFor, quoted before the transaction):
   * the net is converted through the FX clearing accounts into the wallet of that currency, in
   * the same one journal transaction.
   */
  async settle(tx: RequestContext, payment: Payment, rate: SettlementRate | null = null): Promise<Payment> {
    const status = paymentTransition(payment.status, 'settle');
    const settling = payment.amount - payment.amountRefunded;
    const fee = minBig(cardFee(payment.amount, await this.store.settingsOf(tx)), settling);
    const net = settling - fee;
    const pending = await this.ledger.account(tx, {
      kind: AccountKind.MERCHANT_PENDING,
      currency: payment.currency,
      businessId: payment.businessId,
    });
    const fees = await this.ledger.account(tx, { kind: AccountKind.FEES_REVENUE, currency: payment.currency });
    const lines: PostingLine[] = [{ account: pending, amount: -settling }];
    if (fee > 0n) lines.push({ account: fees, amount: fee });
    const credit = await this.settledWalletCredit(tx, payment, net, rate);
    lines.push(...credit.lines);
    const conversion: SettlementConversion | null =
      credit.converted === null
        ? null
        : { currency: rate!.currency, amount: credit.converted, rate: formatDecimal(rate!.rate) };
    const description =
      conversion === null
        ? 'Card payment settled'
        : `Card payment settled in ${conversion.currency}: net ${net} ${payment.currency} minor units at ${conversion.rate} = ${conversion.amount} ${conversion.currency} minor units`;
    await this.ledger.move(tx, {
      kind: 'card_settlement',
      referenceType: 'payment',
      referenceId: payment.id,
      description,
      lines,
    });
    const settledAt = new Date();
    const previousStatus = payment.status;
    await this.store.persist(tx, payment, { status, settledAt, feeAmount: fee });
    await this.events.record(
      tx,
      PaymentEvent.SETTLED,
      paymentSettled(payment, { net, fee, gross: settling }, settledAt, conversion),
    );
    this.store.announce(tx, payment, previousStatus, ['status', 'settledAt', 'feeAmount']);
    return payment;
  }

  /** The currency the payment settles in: the `settle_in` of the `/v1` payment it pays (its checkout session), else its own. */
  private async currencyOf(ctx: RequestContext, payment: Payment): Promise<string> {
    if (payment.source !== PaymentSource.CHECKOUT_SESSION || !payment.sourceId) return payment.currency;
    const v1Payment = await ctx
      .repo(V1Payment)
      .findOne({ select: { settleIn: true }, where: { id: payment.sourceId, businessId: payment.businessId } });
    return v1Payment?.settleIn ?? payment.currency;
  }

  private async quote(ctx: RequestContext, from: string, to: string): Promise<Decimal> {
    const offer = await this.providers
      .providerFor(ctx, 'fx')
      .offer({ sourceCurrency: from, destinationCurrency: to, rail: SETTLEMENT_FX_RAIL });
    return offer.rate;
  }
}
