import { DataSource } from 'typeorm';
import {
  AccountKind,
  CACHED_BALANCE_KINDS,
  JournalEntry,
  JournalTransaction,
  LedgerAccount,
  PLATFORM_BUSINESS_ID,
} from './ledger.entities';
import { TesseraPubSub } from '../events/pubsub';
import { LedgerTopic, WalletBalanceChange } from './ledger.topics';
import { RequestContext } from '../shared/context';
import { DomainError, ErrorCode } from '../shared/errors';
import { LedgerErrorCode } from './ledger.errors';
import { normalizeCurrency } from '../shared/money';
import { DomainEventBus } from '../shared/domain-events';

export interface AccountRef {
  kind: AccountKind;
  currency: string;
  /** Omitted for platform accounts. */
  businessId?: string;
  ownerRef?: string;
}

export interface PostingLine {
  account: LedgerAccount;
  /** Signed minor units: positive increases the account's balance. */
  amount: bigint;
}

export interface Posting {
  kind: string;
  referenceType?: string;
  referenceId?: string;
  description?: string;
  lines: PostingLine[];
}

export interface PostedTransaction {
  transaction: JournalTransaction;
  balances: Map<string, bigint>;
}

export interface LedgerCheck {
  balanced: boolean;
  unbalancedTransactions: Array<{ transactionId: string; currency: string; sum: string }>;
  cachedBalanceMismatches: Array<{ accountId: string; cached: string; fromEntries: string }>;
  negativeBalances: Array<{ accountId: string; balance: string }>;
}

const ALLOW_NEGATIVE: ReadonlySet<AccountKind> = new Set([
  AccountKind.SANDBOX_FUNDING,
  AccountKind.PROVIDER_CLEARING,
  AccountKind.FEES_REVENUE,
  AccountKind.DISPUTE_RESERVE,
  AccountKind.PAYOUT_IN_FLIGHT,
  AccountKind.FX_CLEARING,
]);

/** Entries and balances are PostgreSQL bigints. */
const MAX_ENTRY_AMOUNT = 2n ** 63n - 1n;

const isNumericOverflow = (error: unknown) =>
  (error as { driverError?: { code?: string } }).driverError?.code === '22003';

/**
 * The double-entry ledger. Every movement of money is one `post`: a journal transaction whose
 * entries sum to zero per currency, written in the caller's database transaction.
 */
export class LedgerService {
  constructor(
    private readonly bus: DomainEventBus,
    private readonly pubSub: TesseraPubSub | null = null,
  ) {}

  /**
   * Account identities (never their balances) by kind, mode, currency, business and owner. An
   * account row is never deleted or re-keyed, so once committed its id is good for the process.
   */
  private readonly accounts = new Map<string, LedgerAccount>();

  /** Finds or creates the account, in the context's mode. The returned `balance` is not to be relied on. */
  async account(ctx: RequestContext, ref: AccountRef): Promise<LedgerAccount> {
    const currency = normalizeCurrency(ref.currency);
    const businessId = ref.businessId ?? PLATFORM_BUSINESS_ID;
    const ownerRef = ref.ownerRef ?? '';
    const key = [ref.kind, ctx.livemode, currency, businessId, ownerRef].join('|');
    const known = this.accounts.get(key);
    if (known) return known;
    const params = [ref.kind, ctx.livemode, currency, businessId, ownerRef, ALLOW_NEGATIVE.has(ref.kind)];
    await ctx.em.query(
      `INSERT INTO ledger_accounts (kind, livemode, currency, business_id, owner_ref, allow_negative)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (kind, livemode, currency, business_id, owner_ref) DO NOTHING`,
      params,
    );
    const account = await ctx.repo(LedgerAccount).findOneOrFail({
      where: { kind: ref.kind, livemode: ctx.livemode, currency, businessId, ownerRef },
    });
    // Only once committed: an account created by a transaction that rolls back must not be remembered.
    if (ctx.inTransaction)
      ctx.afterCommit(() => {
        this.accounts.set(key, account);
      });
    else this.accounts.set(key, account);
    return account;
  }

  /**
   * Posts a balanced journal transaction. Accounts with a cached balance are updated with a
   * conditional UPDATE (row lock, re-checked after any wait), so concurrent debits can never
   * overdraw; a refused debit raises INSUFFICIENT_FUNDS and the caller's transaction rolls back.
   */
  async post(ctx: RequestContext, posting: Posting): Promise<PostedTransaction> {
    if (!ctx.inTransaction) throw new Error('LedgerService.post must run inside a transaction');
    this.assertBalanced(posting, ctx.livemode);
    const balances = new Map<string, bigint>();
    // Per line, not per account: an account on several lines has a running balance across them.
    const balanceAfter = new Map<PostingLine, bigint>();
    const ordered = [...posting.lines].sort((a, b) => a.account.id.localeCompare(b.account.id));
    for (const line of ordered) {
      if (!CACHED_BALANCE_KINDS.has(line.account.kind)) continue;
      const rows = await ctx.em
        .query<Array<{ balance: string }>>(
          `UPDATE ledger_accounts SET balance = balance + $2, updated_at = now()
         WHERE id = $1 AND (allow_negative OR balance + $2 >= 0)
         RETURNING balance`,
          [line.account.id, line.amount.toString()],
        )
        .catch((error: unknown) => {
          if (isNumericOverflow(error)) {
            throw new DomainError(
              ErrorCode.UNPROCESSABLE,
              `The ${line.account.currency} balance would exceed the largest amount the ledger holds`,
            );
          }
          throw error;
        });
      const updated = Array.isArray(rows[0]) ? (rows[0] as Array<{ balance: string }>) : rows;
      if (updated.length === 0) {
        throw new DomainError(
          LedgerErrorCode.INSUFFICIENT_FUNDS,
          `Insufficient funds in the ${line.account.currency} wallet`,
        );
      }
      balances.set(line.account.id, BigInt(updated[0].balance));
      balanceAfter.set(line, BigInt(updated[0].balance));
    }

    const transaction = await this.writeJournal(ctx, posting, balanceAfter);
    return { transaction, balances };
  }

  /**
   * The journal transaction and its entries in one statement (a CTE): every posting writes both,
   * so one round trip instead of two. Cached balances are updated before, each entry records its
   * line's balance after.
   */
  private async writeJournal(
    ctx: RequestContext,
    posting: Posting,
    balanceAfter: Map<PostingLine, bigint>,
  ): Promise<JournalTransaction> {
    const { header, sql, values } = this.journalStatement(ctx, posting, balanceAfter);
    const [row]: Array<{ id: string; created_at: Date }> = await ctx.em.query(sql, values);
    return ctx.repo(JournalTransaction).create({ ...header, id: row.id, createdAt: row.created_at });
  }

  private journalStatement(ctx: RequestContext, posting: Posting, balanceAfter: Map<PostingLine, bigint>) {
    const header = {
      businessId: ctx.businessId ?? PLATFORM_BUSINESS_ID,
      livemode: ctx.livemode,
      kind: posting.kind,
      referenceType: posting.referenceType ?? null,
      referenceId: posting.referenceId ?? null,
      description: posting.description ?? null,
    };
    const values: unknown[] = [
      header.businessId,
      header.livemode,
      header.kind,
      header.referenceType,
      header.referenceId,
      header.description,
    ];
    const tuples = posting.lines.map((line) => {
      values.push(
        line.account.id,
        line.account.currency,
        line.amount.toString(),
        balanceAfter.get(line)?.toString() ?? null,
      );
      const base = values.length - 4;
      return `($${base + 1}::uuid, $${base + 2}::text, $${base + 3}::bigint, $${base + 4}::bigint)`;
    });
    const sql = `WITH journal AS (
         INSERT INTO journal_transactions (business_id, livemode, kind, reference_type, reference_id, description)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, created_at
       ), entries AS (
         INSERT INTO journal_entries (transaction_id, account_id, currency, amount, balance_after)
         SELECT journal.id, line.account_id, line.currency, line.amount, line.balance_after
           FROM journal, (VALUES ${tuples.join(', ')}) AS line (account_id, currency, amount, balance_after)
       )
       SELECT id, created_at FROM journal`;
    return { header, sql, values };
  }

  /**
   * `move` for a posting that touches no account with a cached balance (so no overdraft to refuse
   * and no wallet balance to announce): checked balanced now, and its journal transaction and
   * entries written behind (RequestContext.writeBehind), in the caller's transaction, without
   * waiting for the answer: one round trip less. The card capture's posting.
   */
  moveBehind(tx: RequestContext, posting: Posting): void {
    if (!tx.inTransaction) throw new Error('LedgerService.moveBehind must run inside a transaction');
    this.assertBalanced(posting, tx.livemode);
    if (posting.lines.some((line) => CACHED_BALANCE_KINDS.has(line.account.kind))) {
      throw new Error('A posting to an account with a cached balance is checked before it is written: use move');
    }
    const { sql, values } = this.journalStatement(tx, posting, new Map());
    tx.writeBehind(sql, values);
  }

  /**
   * Moves money: posts the balanced journal transaction and, once the caller's transaction has
   * committed, announces the new balance of every merchant wallet it moved (the wallet balance
   * subscription). Every business operation that moves money goes through here, so no wallet
   * change goes unannounced; `post` alone is for postings no subscriber watches.
   */
  async move(tx: RequestContext, posting: Posting): Promise<PostedTransaction> {
    const posted = await this.post(tx, posting);
    for (const line of posting.lines) {
      const balance = posted.balances.get(line.account.id);
      if (line.account.kind === AccountKind.MERCHANT_WALLET && balance !== undefined) {
        this.announceBalance(tx, line.account, balance, line.amount, posted.transaction);
      }
    }
    await this.tellDebits(tx, posting, posted);
    return posted;
  }

  /**
   * Moves back what an earlier posting moved, line for line (each account gets back what it gave):
   * the posting of `original.kind` about `original.referenceType`/`referenceId`. Throws when there
   * is none, so a reversal never books money out of nothing.
   */
  async reverse(
    tx: RequestContext,
    original: { kind: string; referenceType: string; referenceId: string },
    reversal: { kind: string; description: string },
  ): Promise<PostedTransaction> {
    const entries = await tx.repo(JournalEntry).find({
      where: {
        transaction: { kind: original.kind, referenceType: original.referenceType, referenceId: original.referenceId },
      },
      relations: { account: true },
      order: { seq: 'ASC' },
    });
    if (entries.length === 0)
      throw new Error(`No ${original.kind} posting of ${original.referenceType} ${original.referenceId} to reverse`);
    return this.move(tx, {
      kind: reversal.kind,
      referenceType: original.referenceType,
      referenceId: original.referenceId,
      description: reversal.description,
      lines: entries.map((entry) => ({ account: entry.account!, amount: -entry.amount })),
    });
  }

  /** Each merchant wallet the posting took money from on balance (its lines netted): `ledger.wallet-debited`. */
  private async tellDebits(tx: RequestContext, posting: Posting, posted: PostedTransaction): Promise<void> {
    const changes = new Map<string, { wallet: LedgerAccount; change: bigint }>();
    for (const { account, amount } of posting.lines) {
      if (account.kind !== AccountKind.MERCHANT_WALLET) continue;
      const known = changes.get(account.id);
      changes.set(account.id, { wallet: account, change: (known?.change ?? 0n) + amount });
    }
    for (const { wallet, change } of changes.values()) {
      const after = posted.balances.get(wallet.id);
      if (change >= 0n || after === undefined) continue;
      await this.bus.publish(tx, 'ledger.wallet-debited', { wallet, before: after - change, after });
    }
  }

  /** Publishes a wallet's new balance to subscribers once the transaction has committed. */
  announceBalance(
    tx: RequestContext,
    wallet: LedgerAccount,
    balance: bigint,
    change: bigint,
    transaction: JournalTransaction,
  ): void {
    const pubSub = this.pubSub;
    if (!pubSub) return;
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
    tx.afterCommit(() => pubSub.publish(LedgerTopic.WALLET_BALANCE, message));
  }

  private assertBalanced(posting: Posting, livemode: boolean) {
    if (posting.lines.length < 2) throw new Error('A journal transaction needs at least two entries');
    const sums = new Map<string, bigint>();
    for (const { account, amount } of posting.lines) {
      if (amount === 0n) throw new Error('A journal entry cannot be zero');
      if (amount > MAX_ENTRY_AMOUNT || amount < -MAX_ENTRY_AMOUNT)
        throw new Error('A journal entry amount is out of range');
      if (account.livemode !== livemode) throw new Error('A journal transaction cannot mix test and live accounts');
      sums.set(account.currency, (sums.get(account.currency) ?? 0n) + amount);
    }
    for (const [currency, sum] of sums) {
      if (sum !== 0n) throw new Error(`Unbalanced journal transaction: ${currency} entries sum to ${sum}`);
    }
  }

  /** Checks the whole ledger: every transaction balances, cached balances match their entries, none negative. */
  static async check(dataSource: DataSource): Promise<LedgerCheck> {
    const unbalanced: Array<{ transaction_id: string; currency: string; sum: string }> = await dataSource.query(
      `SELECT transaction_id, currency, sum(amount)::text AS sum FROM journal_entries
       GROUP BY transaction_id, currency HAVING sum(amount) <> 0`,
    );
    const mismatches: Array<{ id: string; cached: string; from_entries: string }> = await dataSource.query(
      `SELECT a.id, a.balance::text AS cached, coalesce(sum(e.amount), 0)::text AS from_entries
       FROM ledger_accounts a LEFT JOIN journal_entries e ON e.account_id = a.id
       WHERE a.kind IN (${[...CACHED_BALANCE_KINDS].map((kind) => `'${kind}'`).join(', ')})
       GROUP BY a.id HAVING a.balance <> coalesce(sum(e.amount), 0)`,
    );
    const negative: Array<{ id: string; balance: string }> = await dataSource.query(
      `SELECT id, balance::text AS balance FROM ledger_accounts WHERE NOT allow_negative AND balance < 0`,
    );
    return {
      balanced: unbalanced.length === 0 && mismatches.length === 0 && negative.length === 0,
      unbalancedTransactions: unbalanced.map((row) => ({
        transactionId: row.transaction_id,
        currency: row.currency,
        sum: row.sum,
      })),
      cachedBalanceMismatches: mismatches.map((row) => ({
        accountId: row.id,
        cached: row.cached,
        fromEntries: row.from_entries,
      })),
      negativeBalances: negative.map((row) => ({ accountId: row.id, balance: row.balance })),
    };
  }
}
