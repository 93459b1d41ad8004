import { AccountKind, JournalEntry, JournalTransaction, LedgerAccount, LedgerService } from '../ledger';
import { EventService } from '../events/event.service';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { notFound, validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { exponentOf, normalizeCurrency, toMajor } from '../shared/money';
import { ListPage, PageQuery, decodeCursor, encodeCursor, pageSize } from '../shared/pagination';
import { FundWalletCommand } from './wallet.commands';
import { madeEarlier } from '../idempotency';

export type Wallet = LedgerAccount;

export interface WalletEntry {
  entry: JournalEntry;
  transaction: JournalTransaction;
}

/** Play money per funding, in major units: generous, and far from what a bigint balance can hold. */
const MAX_SANDBOX_FUNDING = 1_000_000_000n;

/** Cursor positions are client-supplied; a position that is not an entry sequence is an invalid cursor. */
function entrySeqOf(cursor: string, filters: unknown): string {
  const [seq] = decodeCursor(cursor, filters);
  if (typeof seq !== 'string' || !/^\d{1,18}$/.test(seq)) {
    throw validationError({ after: ['is not a valid cursor for these filters'] });
  }
  return seq;
}

/** Merchant wallets: one ledger account per business, mode and currency. */
export class WalletService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly events: EventService,
  ) {}

  async provisionWallet(ctx: RequestContext, currency: string): Promise<Wallet> {
    return this.ledger.account(ctx, { kind: AccountKind.MERCHANT_WALLET, currency, businessId: ctx.requireBusiness() });
  }

  async wallets(ctx: RequestContext): Promise<Wallet[]> {
    ctx.requireRole(...ALL_ROLES);
    return ctx.repo(LedgerAccount).find({
      where: { kind: AccountKind.MERCHANT_WALLET, businessId: ctx.requireBusiness(), livemode: ctx.livemode },
      order: { currency: 'ASC' },
    });
  }

  async wallet(ctx: RequestContext, walletId: string): Promise<Wallet> {
    ctx.requireRole(...ALL_ROLES);
    const wallet = isUuid(walletId)
      ? await ctx.repo(LedgerAccount).findOne({
          where: {
            id: walletId,
            kind: AccountKind.MERCHANT_WALLET,
            businessId: ctx.requireBusiness(),
            livemode: ctx.livemode,
          },
        })
      : null;
    if (!wallet) throw notFound('Wallet');
    return wallet;
  }

  /**
   * The wallet's ledger entries, newest first, keyset-paginated on the entry sequence (an entry has
   * no creation-time order of its own: several share a transaction). Offset pages are not offered.
   */
  async entries(
    ctx: RequestContext,
    walletId: string,
    page: Extract<PageQuery, { kind: 'keyset' }>,
  ): Promise<ListPage<WalletEntry>> {
    const wallet = await this.wallet(ctx, walletId);
    const limit = pageSize(page.first);
    const filters = { walletId: wallet.id };
    const afterSeq = page.after ? entrySeqOf(page.after, filters) : null;
    const query = ctx
      .repo(JournalEntry)
      .createQueryBuilder('e')
      .where('e.account_id = :accountId', { accountId: wallet.id })
      .orderBy('e.seq', 'DESC')
      .take(limit + 1);
    if (afterSeq) query.andWhere('e.seq < :seq', { seq: afterSeq });
    const entries = await query.getMany();
    const transactionIds = [...new Set(entries.map((entry) => entry.transactionId))];
    const transactions =
      transactionIds.length === 0
        ? []
        : await ctx
            .repo(JournalTransaction)
            .createQueryBuilder('t')
            .where('t.id IN (:...ids)', { ids: transactionIds })
            .getMany();
    const byId = new Map(transactions.map((transaction) => [transaction.id, transaction]));
    const items = entries.slice(0, limit).map((entry) => ({ entry, transaction: byId.get(entry.transactionId)! }));
    const cursorOf = (row: WalletEntry) => encodeCursor([row.entry.seq], filters);
    return {
      items,
      total: null,
      hasNextPage: entries.length > limit,
      endCursor: items.length > 0 ? cursorOf(items[items.length - 1]) : null,
      cursorOf,
    };
  }

  /**
   * Sandbox only: credits play money to the business's wallet in `currency`, balanced against
   * the sandbox funding account (the ledger announces the new balance after commit).
   */
  async sandboxFund(ctx: RequestContext, command: FundWalletCommand) {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    const earlier = await madeEarlier(ctx, 'sandbox_funding', JournalTransaction);
    if (earlier) return this.fundingOf(ctx, earlier); // a retry of a funding that committed before its answer was stored
    const currency = normalizeCurrency(command.currency);
    const { amount } = command;
    if (amount <= 0n) throw validationError({ amount: ['must be greater than zero'] });
    if (amount > MAX_SANDBOX_FUNDING * 10n ** BigInt(exponentOf(currency))) {
      throw validationError({ amount: [`must be at most ${MAX_SANDBOX_FUNDING} ${currency} per funding`] });
    }
    return inTransaction(ctx, async (tx) => {
      const wallet = await this.provisionWallet(tx, currency);
      const source = await this.ledger.account(tx, { kind: AccountKind.SANDBOX_FUNDING, currency });
      const { transaction, balances } = await this.ledger.move(tx, {
        kind: 'sandbox_funding',
        description: 'Sandbox wallet funding',
        lines: [
          { account: wallet, amount },
          { account: source, amount: -amount },
        ],
      });
      const funded = await tx.repo(LedgerAccount).findOneByOrFail({ id: wallet.id });
      await this.events.record(tx, 'wallet.funded', {
        walletId: wallet.id,
        currency: currency.toLowerCase(),
        amount: toMajor(amount, currency),
        balance: toMajor(balances.get(wallet.id)!, currency),
        transactionId: transaction.id,
      });
      await tx.idempotency?.recordResource(tx, 'sandbox_funding', transaction.id);
      return { wallet: funded, transaction, amount };
    });
  }

  /** A funding made earlier, as `sandboxFund` answers it: the wallet it credited (as it is now), the transaction, the amount. */
  private async fundingOf(ctx: RequestContext, transaction: JournalTransaction) {
    const credit = await ctx
      .repo(JournalEntry)
      .findOneOrFail({ where: { transactionId: transaction.id }, order: { amount: 'DESC' } });
    const wallet = await ctx.repo(LedgerAccount).findOneByOrFail({ id: credit.accountId });
    return { wallet, transaction, amount: BigInt(credit.amount) };
  }

  /** @deprecated Money moves through `LedgerService.move`, which announces the balances itself. */
  announceBalance(
    tx: RequestContext,
    wallet: Wallet,
    balance: bigint,
    change: bigint,
    transaction: JournalTransaction,
  ) {
    this.ledger.announceBalance(tx, wallet, balance, change, transaction);
  }
}
