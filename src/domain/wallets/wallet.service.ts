import { z } from 'zod';
import { AccountKind, JournalEntry, JournalTransaction, LedgerAccount } from '../ledger/ledger.entities';
import { LedgerService } from '../ledger/ledger.service';
import { EventService } from '../events/event.service';
import { TesseraPubSub, Topic, WalletBalanceChange } from '../events/pubsub';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { notFound, validationError } from '../shared/errors';
import { exponentOf, normalizeCurrency, toMajor, toMinor } from '../shared/money';
import { Page, PageRequest, decodeCursor, encodeCursor, pageSize, toPage } from '../shared/pagination';
import { decimalAmount, isUuid, parseInput, required } from '../../wire/validation';

export type Wallet = LedgerAccount;

export interface WalletEntry {
  entry: JournalEntry;
  transaction: JournalTransaction;
}

const fundSchema = z.object({
  currency: z.string({ error: required() }).min(3, 'must be a currency code').max(8),
  amount: decimalAmount(),
});


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
    private readonly pubSub: TesseraPubSub,
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
          where: { id: walletId, kind: AccountKind.MERCHANT_WALLET, businessId: ctx.requireBusiness(), livemode: ctx.livemode },
        })
      : null;
    if (!wallet) throw notFound('Wallet');
    return wallet;
  }

  /** The wallet's ledger entries, newest first, keyset-paginated on the entry sequence. */
  async entries(ctx: RequestContext, walletId: string, page: PageRequest): Promise<Page<WalletEntry>> {
    const wallet = await this.wallet(ctx, walletId);
    const limit = pageSize(page.first);
    const filters = { walletId: wallet.id };
    const afterSeq = page.after ? entrySeqOf(page.after, filters) : null;
    const query = ctx.repo(JournalEntry).createQueryBuilder('e')
      .where('e.account_id = :accountId', { accountId: wallet.id })
      .orderBy('e.seq', 'DESC')
      .take(limit + 1);
    if (afterSeq) query.andWhere('e.seq < :seq', { seq: afterSeq });
    const entries = await query.getMany();
    const transactionIds = [...new Set(entries.map((entry) => entry.transactionId))];
    const transactions = transactionIds.length === 0 ? [] : await ctx.repo(JournalTransaction)
      .createQueryBuilder('t').where('t.id IN (:...ids)', { ids: transactionIds }).getMany();
    const byId = new Map(transactions.map((transaction) => [transaction.id, transaction]));
    const rows = entries.map((entry) => ({ entry, transaction: byId.get(entry.transactionId)! }));
    return toPage(rows, limit, (row) => encodeCursor([row.entry.seq], filters));
  }

  /**
   * Sandbox only: credits play money to the business's wallet in `currency`, balanced against
   * the sandbox funding account, and announces the new balance after commit.
   */
  async sandboxFund(ctx: RequestContext, input: unknown) {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    const data = parseInput(fundSchema, input);
    const currency = normalizeCurrency(data.currency);
    const amount = toMinor(data.amount, currency);
    if (amount <= 0n) throw validationError({ amount: ['must be greater than zero'] });
    if (amount > MAX_SANDBOX_FUNDING * 10n ** BigInt(exponentOf(currency))) {
      throw validationError({ amount: [`must be at most ${MAX_SANDBOX_FUNDING} ${currency} per funding`] });
    }
    return inTransaction(ctx, async (tx) => {
      const wallet = await this.provisionWallet(tx, currency);
      const source = await this.ledger.account(tx, { kind: AccountKind.SANDBOX_FUNDING, currency });
      const { transaction } = await this.ledger.post(tx, {
        kind: 'sandbox_funding',
        description: 'Sandbox wallet funding',
        lines: [
          { account: wallet, amount },
          { account: source, amount: -amount },
        ],
      });
      const funded = await tx.repo(LedgerAccount).findOneByOrFail({ id: wallet.id });
      const balance = funded.balance;
      await this.events.record(tx, 'wallet.funded', {
        walletId: wallet.id, currency: currency.toLowerCase(), amount: toMajor(amount, currency),
        balance: toMajor(balance, currency), transactionId: transaction.id,
      });
      this.announceBalance(tx, wallet, balance, amount, transaction);
      return { wallet: funded, transaction, amount };
    });
  }

  /** Publishes a wallet's new balance to subscribers once the transaction has committed. */
  announceBalance(tx: RequestContext, wallet: Wallet, balance: bigint, change: bigint, transaction: JournalTransaction) {
    const message: WalletBalanceChange = {
      businessId: wallet.businessId,
      livemode: wallet.livemode,
      walletId: wallet.id,
      currency: wallet.currency,
      balanceMinor: balance.toString(),
      changeMinor: change.toString(),
      journalTransactionId: transaction.id,
      occurredAt: transaction.createdAt.toISOString(),
    };
    tx.afterCommit(() => this.pubSub.publish(Topic.WALLET_BALANCE, message));
  }
}
