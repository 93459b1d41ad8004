import { WalletDebit } from '../ledger';
import { DomainEventBus } from '../shared/domain-events';
import { ADMIN_ROLES, ALL_ROLES, RequestContext } from '../shared/context';
import { notFound, validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { Business } from '../identity';
import { MAX_AMOUNT_MINOR, normalizeCurrency } from '../shared/money';
import { WalletLowBalanceThreshold } from './low-balance.entity';
import { LowBalanceCrossing } from './wallets.events';
import { SetLowBalanceThresholdCommand } from './wallet.commands';

/**
 * Low-balance thresholds of merchant wallets, one per business, mode and currency, and the
 * crossing rule: a debit whose balance before is at or above the threshold and whose balance after
 * is below it crosses it, once. Debits while the balance stays below cross nothing; once a credit
 * has brought it back to the threshold or above, the next debit below crosses again. Judged inside
 * the debit's transaction from the ledger's before and after (taken under the wallet's row lock),
 * so concurrent debits give exactly one crossing per fall.
 */
export class LowBalanceService {
  constructor(private readonly bus: DomainEventBus) {}

  /**
   * Sets or (threshold null) removes the threshold of a currency in the context's mode: an OWNER or
   * ADMIN signed in to the dashboard, or the operator (never an API credential).
   */
  async set(ctx: RequestContext, command: SetLowBalanceThresholdCommand): Promise<WalletLowBalanceThreshold | null> {
    ctx.requireDashboardRole(...ADMIN_ROLES);
    const currency = normalizeCurrency(command.currency);
    const where = { businessId: ctx.requireBusiness(), livemode: ctx.livemode, currency };
    // The operator names the business (CLI): an unknown one is NOT_FOUND, not a foreign-key failure.
    if (!isUuid(where.businessId) || !(await ctx.repo(Business).existsBy({ id: where.businessId })))
      throw notFound('Business');
    if (command.threshold === null) {
      await ctx.repo(WalletLowBalanceThreshold).delete(where);
      return null;
    }
    if (command.threshold <= 0n) throw validationError({ threshold: ['must be greater than zero'] });
    if (command.threshold > MAX_AMOUNT_MINOR) throw validationError({ threshold: ['is too large'] });
    await ctx.em.query(
      `INSERT INTO wallet_low_balance_thresholds (business_id, livemode, currency, threshold) VALUES ($1, $2, $3, $4)
       ON CONFLICT (business_id, livemode, currency) DO UPDATE SET threshold = EXCLUDED.threshold, updated_at = now()`,
      [where.businessId, where.livemode, currency, command.threshold.toString()],
    );
    return ctx.repo(WalletLowBalanceThreshold).findOneByOrFail(where);
  }

  /** The thresholds of the context's business and mode, by currency. */
  async list(ctx: RequestContext): Promise<WalletLowBalanceThreshold[]> {
    ctx.requireRole(...ALL_ROLES);
    return ctx
      .repo(WalletLowBalanceThreshold)
      .find({ where: { businessId: ctx.requireBusiness(), livemode: ctx.livemode }, order: { currency: 'ASC' } });
  }

  /** A wallet was debited (`ledger.wallet-debited`): a fall below its threshold is `wallet.low-balance-crossed`. */
  async judge(tx: RequestContext, { wallet, before, after }: WalletDebit): Promise<void> {
    // The crossing test in SQL: one indexed read per debit, nothing when the wallet has no threshold.
    const rows: Array<{ threshold: string }> = await tx.em.query(
      `SELECT threshold::text AS threshold FROM wallet_low_balance_thresholds
        WHERE business_id = $1 AND livemode = $2 AND currency = $3 AND threshold <= $4 AND threshold > $5`,
      [wallet.businessId, wallet.livemode, wallet.currency, before.toString(), after.toString()],
    );
    if (rows.length === 0) return;
    const crossing: LowBalanceCrossing = {
      businessId: wallet.businessId,
      livemode: wallet.livemode,
      walletId: wallet.id,
      currency: wallet.currency,
      balance: after,
      threshold: BigInt(rows[0].threshold),
    };
    await this.bus.publish(tx, 'wallet.low-balance-crossed', crossing);
  }
}
